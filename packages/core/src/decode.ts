import { InvalidArgumentError, InvalidIdError } from './errors.js';
import { readUnsignedId } from './id-string.js';
import { assertLayout, type Layout, withEpoch } from './layout.js';

/** The parts every decoded id has. */
export interface DecodedParts {
  readonly id: bigint;
  /** Ms since 1970 of the id's time unit. */
  readonly timestamp: number;
  readonly date: Date;
  readonly sequence: number;
}

/** A decoded id: its parts, with the layout's node fields by name. */
export type DecodedId<F extends string = string> = DecodedParts &
  (string extends F ? { readonly [nodeField: string]: unknown } : { readonly [K in F]: number });

/**
 * Decodes an id of `layout`, read as strictly as `parseId` but over the layout's whole width.
 *
 * @example
 * decode('175928847299117063', { layout: layouts.discord }).timestamp; // 1462015105796
 */
export function decode<F extends string>(
  id: bigint | string | number,
  options: { layout: Layout<F>; epoch?: number },
): DecodedId<F> {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object like { layout: layouts.snowkey }', options);
  }
  const given = assertLayout(options.layout) as Layout<F>;
  const layout = options.epoch === undefined ? given : withEpoch(given, options.epoch);
  const value = readUnsignedId(id);
  if (value === undefined || value >> BigInt(layout.totalBits) !== 0n) {
    throw new InvalidIdError(
      'id',
      `a decimal string of digits (no sign, spaces, leading zeros or fraction), a bigint or a safe integer Number, in 0..2^${layout.totalBits}-1 (an id of layout "${layout.name}")`,
      id,
    );
  }
  const ticks = Number(value >> BigInt(layout.timestampShift));
  const timestamp = layout.epoch + ticks * layout.timeUnitMs;
  const out: Record<string, bigint | number | Date> = {
    id: value,
    timestamp,
    date: new Date(timestamp),
    sequence: Number((value >> BigInt(layout.sequenceShift)) & BigInt(layout.maxSequence)),
  };
  for (const f of layout.nodeFields) out[f.name] = Number((value >> BigInt(f.shift)) & BigInt(f.max));
  return out as DecodedId<F>;
}
