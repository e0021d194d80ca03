import type { LastError } from '../observe/listeners.js';

/** What a {@link SegmentAllocator} has done and holds, for metrics and health checks. */
export interface SegmentStats {
  readonly kind: 'segment';
  readonly tag: string;
  /** `new` until `ready()` first resolves; `closed` after `close()`. */
  readonly state: 'new' | 'ready' | 'closed';
  /** Ms since 1970 by the allocator's clock, when these figures were read. */
  readonly at: number;
  readonly idsIssued: number;
  /** Ids in memory: what `nextId()` can hand out before the store must answer. */
  readonly buffered: number;
  /** The step the next fetch starts from (the dynamic step). */
  readonly step: number;
  /** Segments taken from the store, and takes that failed. */
  readonly refills: number;
  readonly refillFailures: number;
  /** Calls of `nextId()` / `nextIds()` refused because the buffers held too few ids. */
  readonly unavailable: number;
  /** `ready()` calls that had to wait for the store. */
  readonly waits: number;
  /** The tag has no id left up to `maxId`. */
  readonly exhausted: boolean;
  /** The last failed take's error, cleared by a successful one. */
  readonly lastError: LastError | undefined;
}

/** What a {@link SegmentAllocator} tells its subscribers: each take, each `ready()` that waited. */
export type SegmentEvent =
  | { readonly type: 'refill'; readonly ms: number; readonly ids: number; readonly error?: Error }
  | { readonly type: 'wait'; readonly ms: number };
