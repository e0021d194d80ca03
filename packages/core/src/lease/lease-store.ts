/** What a {@link NodeLease} writes to renew (ms since 1970, by the lease's clock). */
export interface LeaseRenewal {
  readonly nodeId: number;
  readonly holder: string;
  readonly expiresAt: number;
  readonly ceiling: number;
  readonly highWater: number;
  readonly now: number;
}

/** What a {@link NodeLease} writes when it frees its node id. */
export interface LeaseRelease {
  readonly nodeId: number;
  readonly holder: string;
  readonly highWater: number;
  readonly now: number;
}

/**
 * Where a {@link NodeLease} keeps its node id. A renewal that resolves `true` has made its `ceiling`
 * durable, and the id cannot pass to another holder before `expiresAt` unless released.
 */
export interface LeaseStore {
  /** Where the leases are kept, for messages and stats: a table's name, an etcd key prefix. */
  readonly where: string;
  /** Extends the lease, or resolves `false` when lost; values only grow (a stale renewal may land late). */
  renew(renewal: LeaseRenewal): Promise<boolean>;
  /** Frees `nodeId` when `holder` holds it, recording `highWater` for its next holder. */
  release(release: LeaseRelease): Promise<void>;
}
