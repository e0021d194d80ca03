/**
 * What a {@link NodeLease} writes to renew: the new expiry and ceiling (ms since 1970, by the
 * lease's clock), the high-water mark, and `now`, the clock when the renewal started.
 */
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
 * Where a {@link NodeLease} keeps its node id: the SQL lease table, or another store (etcd). The
 * lease owns the fence (what the generator may use, and when it must stop); a store only makes
 * each write conditional on `holder` still holding the node id.
 *
 * A store must keep two promises. A renewal that resolves `true` has made the new `ceiling`
 * durable before the lease lets the generator use it, so the next holder starts after it. And the
 * node id cannot pass to another holder before `expiresAt` (by the lease's clock) unless it was
 * released: a store whose own expiry runs on another clock (etcd's lease TTL) starts it no
 * earlier than `now`.
 *
 * @example
 * const rows = new Map<number, { holder: string | null; ceiling: number; highWater: number }>();
 * const store: LeaseStore = {
 *   where: 'memory',
 *   renew: async (r) => {
 *     const row = rows.get(r.nodeId);
 *     if (row?.holder !== r.holder) return false; // taken by another holder: the lease is lost
 *     row.ceiling = Math.max(row.ceiling, r.ceiling);
 *     row.highWater = Math.max(row.highWater, r.highWater);
 *     return true;
 *   },
 *   release: async (r) => {
 *     const row = rows.get(r.nodeId);
 *     if (row?.holder === r.holder) Object.assign(row, { holder: null, highWater: r.highWater });
 *   },
 * };
 */
export interface LeaseStore {
  /** Where the leases are kept, for messages and stats: a table's name, an etcd key prefix. */
  readonly where: string;
  /**
   * Extends the lease when `holder` still holds `nodeId`; resolves `false` when it does not (the
   * lease was lost). Every value only grows: a renewal that failed on the caller's side may still
   * land after a newer one. Rejects when the store cannot be reached.
   */
  renew(renewal: LeaseRenewal): Promise<boolean>;
  /** Frees `nodeId` when `holder` holds it, recording `highWater` for its next holder. */
  release(release: LeaseRelease): Promise<void>;
}
