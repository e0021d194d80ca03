import type { LastError } from '../observe/listeners.js';
import type { LeaseState } from './node-lease.js';

/** A node-id lease's state and history (ms since 1970, by the lease's clock). */
export interface LeaseStats {
  readonly kind: 'lease';
  readonly nodeId: number;
  readonly holder: string;
  /** Where the lease is kept: the lease table's name, or `etcd <key prefix>` for `@snowkey/etcd`. */
  readonly table: string;
  readonly state: LeaseState;
  /** When these figures were read. */
  readonly at: number;
  /** When the lease was taken, and how long taking it lasted (reading the table and claiming). */
  readonly acquiredAt: number;
  readonly acquireMs: number;
  /** When others may take the id unless it is renewed. */
  readonly expiresAt: number;
  readonly ceiling: number;
  readonly highWaterMark: number;
  /** The last timestamp the generator may use without another renewal. */
  readonly usableUntil: number;
  /** Renewals that succeeded, and those that failed (the database did not answer, or the lease was lost). */
  readonly renewals: number;
  readonly renewalFailures: number;
  /** When the last renewal succeeded (`acquiredAt` before the first). */
  readonly renewedAt: number;
  /** The last failed renewal's error, cleared by a successful one. */
  readonly lastError: LastError | undefined;
}

/** What a lease tells its subscribers: each renewal, its duration and its error. */
export type LeaseEvent = { readonly type: 'renewal'; readonly ms: number; readonly error?: Error };
