import type { LastError } from './observe/listeners.js';

/** What a {@link Snowflake} has done since it was made, for metrics and health checks. */
export interface SnowflakeStats {
  readonly kind: 'snowflake';
  /** All node bits packed. */
  readonly nodeId: number;
  /** The layout's name. */
  readonly layout: string;
  /** Ms since 1970 by the generator's clock, when these figures were read. */
  readonly at: number;
  readonly idsIssued: number;
  /** Time units whose sequence ran out before the clock moved on (each one a wait or a borrow). */
  readonly sequenceOverflows: number;
  /** Overflows that waited for the clock's next time unit, and the real time spent waiting. */
  readonly clockWaits: number;
  readonly clockWaitMs: number;
  /** Overflows that took the next time unit ahead of the clock (`sequenceOverflow: 'borrow'`). */
  readonly borrows: number;
  /** Ms since 1970: the timestamp of the last id (the restart floor before the first). */
  readonly lastTimestamp: number;
  /** Ids refused by the fence (a lease that expired, was lost or released): {@link LeaseExpiredError}s thrown. */
  readonly fenceTrips: number;
  /** The last error `nextId()` or `nextIds()` threw, if any. */
  readonly lastError: LastError | undefined;
}

/** What a {@link Snowflake} tells its subscribers: a wait for the clock's next time unit. */
export type SnowflakeEvent = { readonly type: 'clock-wait'; readonly ms: number };
