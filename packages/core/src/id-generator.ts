import { InvalidArgumentError } from './errors.js';
import { assertKey, isKey, KEY_EXPECTED } from './id-rule.js';

/**
 * The one interface between core and the adapters: anything that hands out unique bigint ids.
 * A {@link Snowflake} generator, a {@link SegmentAllocator}, or your own.
 *
 * @example
 * const gen: IdGenerator = new Snowflake({ workerId: 1 });
 * const id: bigint = gen.nextId();
 */
export interface IdGenerator {
  nextId(): bigint;
  /** Optional batch path; adapters use it for bulk inserts when present. */
  nextIds?(count: number): bigint[];
}

/**
 * Guards the timestamps a generator may use. A lease implements it: ids must be strictly after
 * `startAfter` (the previous holder's high-water mark) and the generator asks `permit` before it
 * moves to a new time unit, so it can never issue an id on an expired lease.
 *
 * @example
 * const fence: TimestampFence = { startAfter: lastKnownHighWater, permit: (ms) => { if (ms > ceiling) throw new Error('stop'); } };
 * new Snowflake({ workerId: 1, fence });
 */
export interface TimestampFence {
  /** Ms since 1970: every id issued must have a timestamp strictly greater than this. */
  readonly startAfter: number;
  /**
   * Called whenever the generator moves to a new timestamp `ms` (ms since 1970, the start of the
   * time unit). Throws (a {@link LeaseExpiredError}) when that timestamp may not be used.
   */
  permit(ms: number): void;
  /** Told the highest timestamp issued so far, so it can be recorded as the high-water mark. */
  observe?(ms: number): void;
}

/**
 * Whether `value` can hand out ids: anything with `nextId()` (a Snowflake, a {@link SegmentAllocator},
 * your own). Adapters use it to validate their options.
 *
 * @example
 * isIdGenerator(new Snowflake({ workerId: 1 })); // true
 * isIdGenerator({});                             // false
 */
export function isIdGenerator(value: unknown): value is IdGenerator {
  return typeof value === 'object' && value !== null && typeof (value as IdGenerator).nextId === 'function';
}

/**
 * What adapters say they expected when a generator option is wrong.
 */
export const ID_GENERATOR_EXPECTED =
  'an IdGenerator (an object with nextId(): bigint, e.g. new Snowflake({ workerId: 1 }))';

/**
 * Returns `value` as an {@link IdGenerator}, or throws an {@link InvalidArgumentError} naming
 * `argument`, what was received and what was expected.
 *
 * @example
 * const generator = assertIdGenerator(options.generator); // throws: "generator" must be an IdGenerator ...
 */
export function assertIdGenerator(value: unknown, argument = 'generator'): IdGenerator {
  if (!isIdGenerator(value)) throw new InvalidArgumentError(argument, ID_GENERATOR_EXPECTED, value);
  return value;
}

/**
 * `count` ids from `generator`, through its batch path when it has one, each checked to be a
 * key (a bigint in 1..2^63-1, see `isKey`) and the batch checked to hold exactly `count`: a broken generator is an
 * {@link InvalidArgumentError} naming `generator.nextId()` or `generator.nextIds(n)` before any id is
 * used, so no row is written with a missing or rounded key. The adapters take their ids here.
 *
 * @example
 * takeIds(new Snowflake({ workerId: 1 }), 2); // [250009988087418880n, 250009988087418881n]
 */
export function takeIds(generator: IdGenerator, count: number): bigint[] {
  if (count === 0) return [];
  if (count === 1 || !generator.nextIds) {
    const out: bigint[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = takeId(generator);
    return out;
  }
  const ids: unknown = generator.nextIds(count);
  if (!Array.isArray(ids) || ids.length !== count) {
    throw new InvalidArgumentError(
      `generator.nextIds(${count})`,
      `an array of ${count} ids, each ${KEY_EXPECTED}`,
      ids,
    );
  }
  // A batch in strictly increasing order is all keys when its first and last are: checked at its
  // two ends only, where core made both methods it comes from (a subclass or an object that
  // replaces either gets every id checked).
  if (ascendingBatches.get(generator.nextIds) === generator.nextId && isKey(ids[0]) && isKey(ids[count - 1]))
    return ids as bigint[];
  // The argument's name is built only for a bad id, not once per id.
  for (const id of ids) if (!isKey(id)) assertKey(id, `generator.nextIds(${count})`);
  return ids as bigint[];
}

/** Core's `nextIds` methods whose ids strictly increase, each with the `nextId` it calls. */
const ascendingBatches = new WeakMap<object, object>();

/**
 * Records that `prototype.nextIds` returns strictly increasing bigints as long as `nextId` is
 * `prototype.nextId`: {@link takeIds} then checks such a batch at its two ends instead of id by
 * id. For core's own generators only (Snowflake marks itself); not exported from the package.
 */
export function markAscendingBatches(prototype: Required<IdGenerator>): void {
  ascendingBatches.set(prototype.nextIds, prototype.nextId);
}

/**
 * One id from `generator`, checked like {@link takeIds}'s. The path for one row at a time.
 *
 * @example
 * entity.id = takeId(generator);
 */
export function takeId(generator: IdGenerator): bigint {
  return assertKey(generator.nextId(), 'generator.nextId()');
}
