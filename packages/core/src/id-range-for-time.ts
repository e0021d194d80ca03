import { InvalidArgumentError, TimestampOutOfRangeError } from './errors.js';
import { assertLayout, type Layout, layoutEndsAt, withEpoch } from './layout.js';
import type { IdRange } from './segment/id-range.js';

/**
 * The ids of `layout` issued from `from` to `to`, both inclusive: `minId` is the smallest id any
 * node and sequence can have in the time unit that holds `from`, `maxId` the largest in the unit
 * that holds `to`. With a 1 ms
 * unit (every preset but `sonyflake`) that is exact to the millisecond: an id lies in the range
 * exactly when its decoded `timestamp` is in `from..to`. A coarser unit rounds both ends outward
 * to whole units, since an id does not record the time within its unit. So
 * `WHERE id BETWEEN minId AND maxId` selects the rows created in that time through the primary
 * key, with no index on a `created_at` column.
 *
 * `from` and `to` are `Date`s or integer ms since 1970. A time before the layout's epoch or past
 * its last instant is a {@link TimestampOutOfRangeError}; `from` after `to`, an invalid `Date` or
 * anything else an {@link InvalidArgumentError}. Both name the argument.
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
