import { SnowkeyError } from '../errors.js';

/** Why a {@link SegmentAllocator} had no id: `store-failing` retries after `retryMs`. */
export type SegmentUnavailableReason = 'not-ready' | 'refilling' | 'store-failing' | 'closed';

/** Fewer ids in memory than asked for; nothing was issued, a fetch has started: `await ready(n)`. */
export class SegmentUnavailableError extends SnowkeyError {
  override name = 'SegmentUnavailableError';
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

/** The tag has handed out every id up to its `maxId`: raise `maxId` or move to a new tag. */
export class IdRangeExhaustedError extends SnowkeyError {
  override name = 'IdRangeExhaustedError';
  override readonly code: string = 'SNOWKEY_ID_RANGE_EXHAUSTED';
  readonly tag: string;
  readonly maxId: bigint;
  constructor(tag: string, maxId: bigint) {
    super(`segment tag "${tag}" has issued every id up to its maxId ${maxId}; nothing was issued`);
    this.tag = tag;
    this.maxId = maxId;
  }
}

/** The store behind a {@link SegmentAllocator} failed or kept losing the race for the next range. */
export class SegmentStoreError extends SnowkeyError {
  override name = 'SegmentStoreError';
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

/** `err` as a {@link SegmentStoreError} (unchanged if it is one), its message prefixed by `what`. */
export function toStoreError(err: unknown, what: string, tag: string, store: string): SegmentStoreError {
  if (err instanceof SegmentStoreError) return err;
  return new SegmentStoreError(`${what}: ${String(err)}`, tag, store, { cause: err });
}
