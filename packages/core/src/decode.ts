import { InvalidArgumentError, InvalidIdError } from './errors.js';
import { parseId } from './id-string.js';
import { assertLayout, type Layout, withEpoch } from './layout.js';

/**
 * A decoded id: its parts, with node fields by name.
 *
 * @example
 * const { timestamp, workerId } = gen.decode(id);
 */
export interface DecodedId {
  readonly id: bigint;
  /** Ms since 1970 of the id's time unit. */
  readonly timestamp: number;
  readonly date: Date;
  readonly sequence: number;
  /** Node fields by name (workerId, datacenterId, serverId, ...). */
  readonly [nodeField: string]: bigint | number | Date;
}

/**
 * Decodes an id of `layout` (a bigint, a decimal string or a safe integer). Invalid input
 * (non-digits, negative, fractions, unsafe Numbers, null, ids wider than the layout) is an
 * {@link InvalidIdError} naming what it got.
 *
 * @example
 * decode('175928847299117063', { layout: layouts.discord });
 * // { id: 175928847299117063n, timestamp: 1462015105796, date: 2016-04-30T11:18:25.796Z,
 * //   sequence: 7, workerId: 1, processId: 0 }
 */
export function decode(id: bigint | string | number, options: { layout: Layout; epoch?: number }): DecodedId {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object like { layout: layouts.snowkey }', options);
  }
  const given = assertLayout(options.layout);
  const layout = options.epoch === undefined ? given : withEpoch(given, options.epoch);
  const value = parseId(id);
  if (value >> BigInt(layout.totalBits) !== 0n) {
    throw new InvalidIdError('id', `below 2^${layout.totalBits} for layout "${layout.name}"`, id);
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
  return out as DecodedId;
}
