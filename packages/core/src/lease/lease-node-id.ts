import { readClock } from '../clock.js';
import { WorkerIdLeaseError } from '../errors.js';
import { holderToken } from './holder-token.js';
import { type LeaseNodeIdOptions, type ResolvedLeaseOptions, resolveLeaseOptions } from './lease-options.js';
import type { LeaseStore } from './lease-store.js';
import { type LeaseRow, LeaseStatements, parseLeaseRow } from './lease-table.js';
import { type LeaseGrant, NodeLease } from './node-lease.js';

/** How many times the table is re-read when every candidate was taken by a concurrent claimant. */
const CLAIM_ROUNDS = 3;

/**
 * Leases a node id for this process from a table in the application's own database, so no two
 * processes share one; throws {@link WorkerIdLeaseError} when all are held.
 *
 * @example
 * const lease = await leaseNodeId({ client: pgSqlClient(pool), layout: layouts.default, releaseOnSignals: true });
 * const gen = new Snowflake({ layout: layouts.default, lease });
 * gen.nextId(); // unique across every process leasing from this database
 */
export async function leaseNodeId(options: LeaseNodeIdOptions): Promise<NodeLease> {
  // Why no id is issued twice, even across machines whose clocks disagree: each row carries a
  // timestamp ceiling, written before it may be used, that only grows. The generator uses
  // timestamps up to it (less expiryMarginMs) until a renewal confirms a higher one, and the next
  // holder starts strictly after it (or after the high-water mark of a clean release). A clock set
  // back, a fast restart after kill -9, or a holder cut off from the database cannot overlap.
  const resolved = resolveLeaseOptions(options);
  const sql = new LeaseStatements(resolved.client.dialect, resolved.table);
  if (resolved.createTable) await createTable(resolved, sql);
  const grant = await claim(resolved, sql);
  return new NodeLease(resolved, sqlLeaseStore(resolved, sql), grant);
}

/** The lease table as a {@link LeaseStore}: each write is one conditional statement. */
function sqlLeaseStore(o: ResolvedLeaseOptions, sql: LeaseStatements): LeaseStore {
  return {
    where: sql.table,
    renew: async (r) =>
      (await o.client.execute(sql.renew, [r.expiresAt, r.ceiling, r.highWater, r.now, r.nodeId, r.holder])) >
      0,
    release: async (r) => {
      await o.client.execute(sql.release, [r.highWater, r.now, r.nodeId, r.holder]);
    },
  };
}

async function createTable(o: ResolvedLeaseOptions, sql: LeaseStatements): Promise<void> {
  try {
    await o.client.execute(sql.create);
  } catch (err) {
    // PostgreSQL's CREATE TABLE IF NOT EXISTS can fail when processes race to create it; the
    // table then exists, which is all we need.
    const exists = await o.client.query(sql.probe).then(
      () => true,
      () => false,
    );
    if (!exists) throw dbError(o, `could not create the lease table "${o.table}"`, err);
  }
}

async function claim(o: ResolvedLeaseOptions, sql: LeaseStatements): Promise<LeaseGrant> {
  const acquiredAt = Math.floor(readClock(o.clock));
  const holder = holderToken(o.holderLabel, acquiredAt);
  let live = 0;
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    let rows: LeaseRow[];
    try {
      rows = (await o.client.query<Record<string, unknown>>(sql.readAll, [o.maxNodeId])).map(parseLeaseRow);
    } catch (err) {
      throw dbError(o, `could not read the lease table "${o.table}"`, err);
    }
    const now = Math.floor(readClock(o.clock));
    for (const candidate of preferredFirst(rows, o.maxNodeId, now, o.preferredNodeId)) {
      const grant = await tryClaim(o, sql, holder, candidate);
      if (grant) return { ...grant, acquiredAt, acquireMs: Math.floor(readClock(o.clock)) - acquiredAt };
    }
    live = rows.filter((r) => r.holder !== null && r.expiresAt >= now).length;
  }
  throw new WorkerIdLeaseError(
    `every node id 0..${o.maxNodeId} of layout "${o.layout.name}" is held in "${o.table}" (${live} live leases); release one, wait for one to expire, or use a layout with more node bits`,
    o.table,
    `all ${o.maxNodeId + 1} node ids held`,
  );
}

/** A free id (no row yet) or a row that is released or expired by our clock, smallest first. */
type Candidate = { readonly nodeId: number; readonly row?: LeaseRow };

function* candidates(rows: readonly LeaseRow[], maxNodeId: number, now: number): Generator<Candidate> {
  let next = 0;
  for (const row of rows) {
    for (; next < row.nodeId; next++) yield { nodeId: next };
    next = row.nodeId + 1;
    if (row.holder === null || row.expiresAt < now) yield { nodeId: row.nodeId, row };
  }
  for (; next <= maxNodeId; next++) yield { nodeId: next };
}

/** The preferred id first when it is a candidate (free, released or expired), then the others in order. */
function* preferredFirst(
  rows: readonly LeaseRow[],
  maxNodeId: number,
  now: number,
  preferred: number | undefined,
): Generator<Candidate> {
  let first: Candidate | undefined;
  if (preferred !== undefined) {
    const row = rows.find((r) => r.nodeId === preferred);
    if (!row) first = { nodeId: preferred };
    else if (row.holder === null || row.expiresAt < now) first = { nodeId: preferred, row };
  }
  if (first) yield first;
  for (const c of candidates(rows, maxNodeId, now)) if (c.nodeId !== first?.nodeId) yield c;
}

async function tryClaim(
  o: ResolvedLeaseOptions,
  sql: LeaseStatements,
  holder: string,
  { nodeId, row }: Candidate,
): Promise<LeaseGrant | undefined> {
  const now = Math.floor(readClock(o.clock));
  // A clean release recorded the last timestamp used; a lapsed holder may have used any timestamp
  // up to its ceiling. The high-water mark is kept too: it is at least the holder's own start.
  const startAfter = row ? (row.holder === null ? row.highWater : Math.max(row.ceiling, row.highWater)) : 0;
  const expiresAt = now + o.ttlMs;
  const ceiling = Math.max(now, startAfter) + o.ttlMs;
  let changed: number;
  try {
    changed = row
      ? await o.client.execute(sql.takeOver, [
          holder,
          expiresAt,
          ceiling,
          startAfter,
          now,
          nodeId,
          row.version,
        ])
      : await o.client.execute(sql.insertIfAbsent, [nodeId, holder, expiresAt, ceiling, startAfter, now]);
  } catch (err) {
    throw dbError(o, `could not claim node id ${nodeId} in "${o.table}"`, err);
  }
  return changed === 1 ? { nodeId, holder, startAfter, expiresAt, ceiling } : undefined;
}

function dbError(o: ResolvedLeaseOptions, what: string, err: unknown): WorkerIdLeaseError {
  return new WorkerIdLeaseError(`${what} (${o.client.dialect}): ${String(err)}`, o.table, String(err), {
    cause: err,
  });
}
