import { InvalidArgumentError } from '../errors.js';

/**
 * What a {@link SegmentAllocator} asks its store for: `count` ids of `tag`, none below `minId` and
 * none above `maxId`.
 *
 * @example
 * const request: SegmentRequest = { tag: 'orders', count: 1000, minId: 1n, maxId: 2n ** 53n - 1n };
 */
export interface SegmentRequest {
  readonly tag: string;
  /** How many ids to take (a positive safe integer): the allocator's current step, or more for a large batch. */
  readonly count: number;
  readonly minId: bigint;
  readonly maxId: bigint;
}

/**
 * A range of ids a store handed to one caller and to no one else: `first..last`, both included.
 *
 * @example
 * const grant: SegmentGrant = { first: 1001n, last: 2000n, step: 1000 };
 */
export interface SegmentGrant {
  readonly first: bigint;
  /** The highest id taken; also the tag's counter after this take, which the runway estimate reads. */
  readonly last: bigint;
  /** The tag's base step as the store records it (the SQL table's `step` column), when it keeps one. */
  readonly step?: number;
}

/**
 * Where a {@link SegmentAllocator} takes its ranges from. snowkey ships one over a `SqlClient`
 * (pass `client` to the allocator) and {@link redisSegmentStore}. A store of your own must hand each
 * range to exactly one caller, across every process, under any interleaving, and never hand out a
 * range twice after a restart: gaps are allowed, overlaps never.
 *
 * @example
 * let counter = 0n;
 * const store: SegmentStore = {
 *   name: 'memory',
 *   prepare: async () => ({}),
 *   take: async ({ count, maxId }) => {
 *     if (counter >= maxId) return undefined;
 *     const first = counter + 1n;
 *     counter = counter + BigInt(count) > maxId ? maxId : counter + BigInt(count);
 *     return { first, last: counter };
 *   },
 * };
 */
export interface SegmentStore {
  /** For messages: `postgres`, `mysql`, `sqlite`, `redis`, ... */
  readonly name: string;
  /**
   * Makes the tag ready (creates its table or row when missing, starting below `minId`) and
   * resolves to the base step it records, if it keeps one. Called by `ready()` until it succeeds.
   */
  prepare(
    tag: string,
    defaults: { readonly step: number; readonly minId: bigint },
  ): Promise<{ step?: number }>;
  /** Takes the next range, or resolves to `undefined` when the tag has no id left up to `maxId`. */
  take(request: SegmentRequest): Promise<SegmentGrant | undefined>;
}

/**
 * Checks a store's grant: the range asked for or less, inside the bounds. Anything else is a
 * store bug, refused with an {@link InvalidArgumentError} naming `store.take()` before any id of it
 * is handed out.
 *
 * @example
 * checkGrant({ first: 1n, last: 50n }, 10, 1n, 100n); // InvalidArgumentError: "store.take()" must be a range of 1..10 ids ...
 */
export function checkGrant(grant: SegmentGrant, count: number, minId: bigint, maxId: bigint): void {
  const { first, last } = grant;
  if (
    typeof first !== 'bigint' ||
    typeof last !== 'bigint' ||
    first > last ||
    first < minId ||
    last > maxId ||
    last - first >= BigInt(count)
  ) {
    throw new InvalidArgumentError(
      'store.take()',
      `a range of 1..${count} ids inside ${minId}..${maxId}`,
      `${String(first)}..${String(last)}`,
    );
  }
}
