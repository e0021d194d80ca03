import { InvalidArgumentError } from '../errors.js';

/** What a {@link SegmentAllocator} asks its store for: `count` ids of `tag` in `minId..maxId`. */
export interface SegmentRequest {
  readonly tag: string;
  /** How many ids to take (a positive safe integer): the allocator's current step, or more for a large batch. */
  readonly count: number;
  readonly minId: bigint;
  readonly maxId: bigint;
}

/** A range of ids a store handed to one caller and to no one else: `first..last`, both included. */
export interface SegmentGrant {
  readonly first: bigint;
  /** The highest id taken; also the tag's counter after this take, which the runway estimate reads. */
  readonly last: bigint;
  /** The tag's base step as the store records it (the SQL table's `step` column), when it keeps one. */
  readonly step?: number;
}

/**
 * Where a {@link SegmentAllocator} takes its ranges: each to exactly one caller across every process
 * and restart (gaps allowed, overlaps never).
 */
export interface SegmentStore {
  /** For messages: `postgres`, `mysql`, `sqlite`, `redis`, ... */
  readonly name: string;
  /** Creates the tag's table or row when missing; resolves to its recorded base step, if any. */
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
