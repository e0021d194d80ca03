import { InvalidArgumentError } from './errors.js';
import { assertLayout, type Layout } from './layout.js';
import { packNodeFields } from './node-fields.js';

/** The parts of an id for {@link composeId}: a timestamp, a sequence and the node fields by name. */
export type IdParts<F extends string = string> = {
  /** Ms since 1970; truncated to the layout's time unit. */
  readonly timestamp: number;
  readonly sequence: number;
} & { readonly [K in F]: number };

/**
 * The id a layout gives to the parts: the inverse of `decode`.
 *
 * @example
 * composeId({ timestamp: Date.UTC(2026, 0, 1), sequence: 0, workerId: 1 }, layouts.snowkey);
 * // the smallest id workerId 1 can issue in that ms
 */
export function composeId<F extends string>(parts: IdParts<NoInfer<F>>, layout: Layout<F>): bigint {
  if (parts === null || typeof parts !== 'object') {
    throw new InvalidArgumentError('parts', 'an object like { timestamp, sequence, ...node fields }', parts);
  }
  assertLayout(layout);
  const { timestamp, sequence, ...nodes } = parts;
  const ticks = Math.floor((timestamp - layout.epoch) / layout.timeUnitMs);
  if (!Number.isFinite(timestamp) || ticks < 0 || ticks > layout.maxTimestamp) {
    throw new InvalidArgumentError(
      'timestamp',
      `ms since 1970 within layout "${layout.name}" (${layout.epoch}..${layout.epoch + (layout.maxTimestamp + 1) * layout.timeUnitMs - 1})`,
      timestamp,
    );
  }
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > layout.maxSequence) {
    throw new InvalidArgumentError('sequence', `an integer in 0..${layout.maxSequence}`, sequence);
  }
  const { nodePart } = packNodeFields(layout, nodes as Readonly<Record<string, unknown>>, undefined);
  return (
    (BigInt(ticks) << BigInt(layout.timestampShift)) |
    nodePart |
    (BigInt(sequence) << BigInt(layout.sequenceShift))
  );
}
