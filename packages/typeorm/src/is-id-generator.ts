import type { IdGenerator } from '@snowkey/core';

/**
 * Whether `value` can hand out ids: anything with `nextId()`, the one interface between core and
 * the adapters (a Snowflake, a segment allocator, your own).
 *
 * @example
 * isIdGenerator(new Snowflake({ workerId: 1 })); // true
 * isIdGenerator({});                             // false
 */
export function isIdGenerator(value: unknown): value is IdGenerator {
  return typeof value === 'object' && value !== null && typeof (value as IdGenerator).nextId === 'function';
}
