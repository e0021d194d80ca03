import { InvalidArgumentError } from './errors.js';
import { assertKey, isKey, KEY_EXPECTED } from './id-rule.js';

/** Anything that hands out unique bigint ids: a {@link Snowflake}, a {@link SegmentAllocator}, your own. */
export interface IdGenerator {
  nextId(): bigint;
  /** Optional batch path; adapters use it for bulk inserts when present. */
  nextIds?(count: number): bigint[];
}

/** Guards a generator's timestamps: after `startAfter`, and each new unit `permit`ted (a lease). */
export interface TimestampFence {
  /** Ms since 1970: every id issued must have a timestamp strictly greater than this. */
  readonly startAfter: number;
  /** Called on every new time unit `ms`; throws (a {@link LeaseExpiredError}) when it may not be used. */
  permit(ms: number): void;
  /** Told the highest timestamp issued so far, so it can be recorded as the high-water mark. */
  observe?(ms: number): void;
}

/** Whether `value` can hand out ids: anything with `nextId()`. */
export function isIdGenerator(value: unknown): value is IdGenerator {
  return typeof value === 'object' && value !== null && typeof (value as IdGenerator).nextId === 'function';
}

/** What adapters say they expected when a generator option is wrong. */
export const ID_GENERATOR_EXPECTED =
  'an IdGenerator (an object with nextId(): bigint, e.g. new Snowflake({ workerId: 1 }))';

/** Returns `value` as an {@link IdGenerator}, or throws an {@link InvalidArgumentError}. */
export function assertIdGenerator(value: unknown, argument = 'generator'): IdGenerator {
  if (!isIdGenerator(value)) throw new InvalidArgumentError(argument, ID_GENERATOR_EXPECTED, value);
  return value;
}

/** `count` ids from `generator`, each checked to be a key before any is used, so no row gets a bad key. */
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

/** One id from `generator`, checked like {@link takeIds}'s. The path for one row at a time. */
export function takeId(generator: IdGenerator): bigint {
  return assertKey(generator.nextId(), 'generator.nextId()');
}
