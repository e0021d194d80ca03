import { InvalidArgumentError, TimestampOutOfRangeError } from './errors.js';
import { assertLayout, type Layout, layoutEndsAt, withEpoch } from './layout.js';
import type { IdRange } from './segment/id-range.js';

/**
 * The ids issued from `from` to `to`, both inclusive, for `WHERE id BETWEEN minId AND maxId`;
 * exact to the time unit (ends rounded outward to whole units).
 *
 * @example
 * const { minId, maxId } = idRangeForTime(new Date('2026-03-01T00:00:00Z'), new Date('2026-03-31T23:59:59.999Z'), { layout: layouts.snowkey });
 * // SELECT * FROM orders WHERE id BETWEEN $1 AND $2, with [minId, maxId]
 */
export function idRangeForTime(
  from: Date | number,
  to: Date | number,
  options: { layout: Layout; epoch?: number },
): IdRange {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object like { layout: layouts.snowkey }', options);
  }
  const given = assertLayout(options.layout, 'options.layout');
  const layout = options.epoch === undefined ? given : withEpoch(given, options.epoch);
  const fromMs = instant(from, 'from', layout);
  const toMs = instant(to, 'to', layout);
  if (fromMs > toMs) {
    throw new InvalidArgumentError('to', `a time at or after "from" (${new Date(fromMs).toISOString()})`, to);
  }
  const shift = BigInt(layout.timestampShift);
  const unit = (ms: number) => BigInt(Math.floor((ms - layout.epoch) / layout.timeUnitMs));
  return { minId: unit(fromMs) << shift, maxId: ((unit(toMs) + 1n) << shift) - 1n };
}

/** Ms since 1970 of a `Date` or an integer Number, within the layout's range. */
function instant(value: unknown, argument: string, layout: Layout): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms)) {
    throw new InvalidArgumentError(argument, 'a valid Date or an integer of ms since 1970', value);
  }
  const last = layoutEndsAt(layout);
  if (ms < layout.epoch || ms > last) {
    throw new TimestampOutOfRangeError(layout.name, ms, layout.epoch, last, argument);
  }
  return ms;
}
