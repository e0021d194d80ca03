import { SnowkeyError } from '../errors.js';

/**
 * Why a {@link SegmentAllocator} had no id to hand out:
 * - `not-ready`: `ready()` was never awaited;
 * - `refilling`: the buffers ran dry and the next segment is being fetched;
 * - `store-failing`: the buffers ran dry and the last fetch failed (the database or Redis is
 *   unreachable); a new attempt starts after `retryMs`;
 * - `closed`: `close()` was called.
 *
 * @example
 * if (err instanceof SegmentUnavailableError && err.reason === 'store-failing') alertOps(err.cause);
 */
export type SegmentUnavailableReason = 'not-ready' | 'refilling' | 'store-failing' | 'closed';

/**
 * `nextId()` or `nextIds(n)` found fewer ids in memory than asked for: both buffers are empty (or
 * hold fewer than `n`). Thrown at once, never after a wait; nothing was issued. The allocator
 * has already started fetching what was asked for (unless it is closed), so a later call succeeds
 * once the store answers; `await allocator.ready(n)` waits for that.
 *
 * @example
 * let id: bigint;
 * try {
 *   id = allocator.nextId();
 * } catch (err) {
 *   if (!(err instanceof SegmentUnavailableError)) throw err;
 *   await allocator.ready(); // SegmentStoreError if the store is still down
 *   id = allocator.nextId();
 * }
 */
export class SegmentUnavailableError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_SEGMENT_UNAVAILABLE';
  readonly tag: string;
  readonly reason: SegmentUnavailableReason;
  /** How many ids the call asked for. */
  readonly requested: number;
  /** How many were in memory. */
  readonly available: number;
  constructor(
    tag: string,
    reason: SegmentUnavailableReason,
    requested: number,
    available: number,
    options?: { cause?: unknown },
  ) {
    super(`${describe(tag, requested, available)}: ${REASONS[reason]}`, options);
    this.tag = tag;
    this.reason = reason;
    this.requested = requested;
    this.available = available;
  }
}

const REASONS: Record<SegmentUnavailableReason, string> = {
  'not-ready': 'await allocator.ready() before the first id',
  refilling: 'the next segment is being fetched; nothing was issued',
  'store-failing':
    'the last segment fetch failed (see cause) and both buffers are empty; nothing was issued, and fetching is retried',
  closed: 'the allocator was closed',
};

function describe(tag: string, requested: number, available: number): string {
  return `segment tag "${tag}" has ${available} id${available === 1 ? '' : 's'} in memory, ${requested} requested`;
}

/**
 * The tag has handed out every id up to its `maxId`: no store holds another. Nothing was issued.
 * Raise `maxId` (if the column can take it) or move to a new tag.
 *
 * @example
 * // IdRangeExhaustedError: segment tag "orders" has issued every id up to its maxId 9007199254740991
 */
export class IdRangeExhaustedError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_ID_RANGE_EXHAUSTED';
  readonly tag: string;
  readonly maxId: bigint;
  constructor(tag: string, maxId: bigint) {
    super(`segment tag "${tag}" has issued every id up to its maxId ${maxId}; nothing was issued`);
    this.tag = tag;
    this.maxId = maxId;
  }
}

/**
 * The store behind a {@link SegmentAllocator} failed: the database or Redis refused or could not be
 * reached, the allocation table could not be created, or other allocators kept winning the race
 * for the next range. `ready()` rejects with it; `nextId()` carries it as the `cause` of a
 * {@link SegmentUnavailableError}; `onError` is told about each one.
 *
 * @example
 * // SegmentStoreError: could not take a segment of 1000 ids for tag "orders" from postgres: connect ECONNREFUSED 127.0.0.1:5432
 */
export class SegmentStoreError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_SEGMENT_STORE';
  readonly tag: string;
  /** The store's name: `postgres`, `mysql`, `sqlite`, `redis`, or a custom store's. */
  readonly store: string;
  constructor(message: string, tag: string, store: string, options?: { cause?: unknown }) {
    super(message, options);
    this.tag = tag;
    this.store = store;
  }
}

/**
 * `err` as a {@link SegmentStoreError} (unchanged if it is one), its message prefixed by `what`.
 *
 * @example
 * toStoreError(new Error('ECONNREFUSED'), 'could not take a segment for tag "orders" from postgres', 'orders', 'postgres');
 */
export function toStoreError(err: unknown, what: string, tag: string, store: string): SegmentStoreError {
  if (err instanceof SegmentStoreError) return err;
  return new SegmentStoreError(`${what}: ${String(err)}`, tag, store, { cause: err });
}
