import { type Clock, monotonicClock, readClock } from '../clock.js';
import { InvalidArgumentError, SnowkeyError } from '../errors.js';
import { assertSqlClient, type SqlClient } from '../sql-client.js';
import { holderToken, parseHolderToken } from './holder-token.js';
import { DEFAULT_LEASE_TABLE, LeaseStatements, parseLeaseRow } from './lease-table.js';

/** One node id's lease as an operator sees it (`snowkey leases list`). Times are ms since 1970. */
export interface LeaseRecord {
  readonly nodeId: number;
  /** `held` until it expires by the inspecting clock; `released` once freed; `evicted` after `free --force`, until its ceiling. */
  readonly status: 'held' | 'expired' | 'released' | 'evicted';
  /** The holder's token, `null` once released. */
  readonly holder: string | null;
  /** The holder's label: `pid-<pid>@<host>` by default. */
  readonly label: string | null;
  /** When the holder acquired it, when its token says so. */
  readonly acquiredAt: number | null;
  readonly renewedAt: number;
  readonly expiresAt: number;
  /** No id of this node id has a later timestamp. */
  readonly ceiling: number;
  readonly highWater: number;
  readonly version: number;
}

/** What {@link LeaseInspector.free} did. */
export interface FreeResult {
  /** `evicted` (`force`): the holder loses it at its next renewal; the id frees itself at its ceiling. */
  readonly outcome: 'freed' | 'evicted' | 'already-free' | 'never-used';
  /** The lease before, `undefined` for a node id never leased. */
  readonly before: LeaseRecord | undefined;
  /** When the next holder of the id can issue ids: after every timestamp the previous one could use. */
  readonly nextStartsAfter: number | undefined;
}

/** Reads and repairs node-id leases where a store keeps them. */
export interface LeaseInspector {
  /** For messages: `postgres table snowkey_node_leases`. */
  readonly where: string;
  /** Every lease ever taken, by node id. */
  list(): Promise<LeaseRecord[]>;
  /** Frees a node id; see {@link inspectSqlLeases} for when that is safe. */
  free(nodeId: number, options?: { force?: boolean }): Promise<FreeResult>;
}

/** `free` refused: the holder may still be issuing ids, or the row changed meanwhile. */
export class LeaseFreeRefusedError extends SnowkeyError {
  override name = 'LeaseFreeRefusedError';
  override readonly code: string = 'SNOWKEY_LEASE_FREE_REFUSED';
  readonly nodeId: number;
  readonly reason: 'held' | 'ceiling-ahead' | 'changed';
  constructor(message: string, nodeId: number, reason: 'held' | 'ceiling-ahead' | 'changed') {
    super(message);
    this.nodeId = nodeId;
    this.reason = reason;
  }
}

/** The holder label written by an eviction: the row stays taken until its ceiling. */
const EVICTED = 'evicted-by-operator';

/** A {@link LeaseInspector} over the lease table of a SQL database. */
export function inspectSqlLeases(
  client: SqlClient,
  options: { table?: string; clock?: Clock } = {},
): LeaseInspector {
  // free() never lets two ids collide: it writes the row's ceiling as its high-water mark, so the
  // next holder starts after every timestamp the previous one could have used, and the write is
  // conditional on the row's version, so a renewal that lands first makes it refuse. Without
  // `force` it frees only an expired lease whose ceiling has passed; with it, it evicts: the
  // holder's next renewal finds the id taken, and the id frees itself once its ceiling passes.
  assertSqlClient(client, 'client');
  const sql = new LeaseStatements(client.dialect, options.table ?? DEFAULT_LEASE_TABLE);
  const clock = options.clock ?? monotonicClock;
  const now = () => Math.floor(readClock(clock));
  const columns = 'node_id, holder, version, expires_at, ceiling, high_water, renewed_at';

  const read = async (nodeId?: number): Promise<LeaseRecord[]> => {
    const where = nodeId === undefined ? '' : ' WHERE node_id = ?';
    const rows = await client.query<Record<string, unknown>>(
      `SELECT ${columns} FROM ${sql.table}${where} ORDER BY node_id`,
      nodeId === undefined ? [] : [nodeId],
    );
    const at = now();
    return rows.map((raw) => toRecord(raw, at));
  };

  return {
    where: `${client.dialect} table ${sql.table}`,
    list: () => read(),
    async free(nodeId, { force = false } = {}) {
      if (!Number.isSafeInteger(nodeId) || nodeId < 0) {
        throw new InvalidArgumentError('nodeId', 'a node id: a non-negative integer', nodeId);
      }
      const [before] = await read(nodeId);
      if (!before) return { outcome: 'never-used', before, nextStartsAfter: undefined };
      const startsAfter = Math.max(before.ceiling, before.highWater);
      if (before.holder === null)
        return { outcome: 'already-free', before, nextStartsAfter: before.highWater };
      const at = now();
      const expired = before.expiresAt < at && before.ceiling <= at;
      if (!expired && !force) throw refusal(before, at);
      const changed = expired
        ? await client.execute(
            `UPDATE ${sql.table} SET holder = NULL, version = version + 1, expires_at = 0, high_water = ?, renewed_at = ? WHERE node_id = ? AND version = ?`,
            [startsAfter, at, nodeId, before.version],
          )
        : await client.execute(
            `UPDATE ${sql.table} SET holder = ?, version = version + 1, expires_at = ?, renewed_at = ? WHERE node_id = ? AND version = ?`,
            [holderToken(EVICTED, at), before.ceiling, at, nodeId, before.version],
          );
      if (changed !== 1) {
        throw new LeaseFreeRefusedError(
          `node id ${nodeId} changed in ${sql.table} while it was being freed (its holder renewed it, or another process took it); nothing was written: look again`,
          nodeId,
          'changed',
        );
      }
      return { outcome: expired ? 'freed' : 'evicted', before, nextStartsAfter: startsAfter };
    },
  };
}

function toRecord(raw: Record<string, unknown>, at: number): LeaseRecord {
  const row = parseLeaseRow(raw);
  const renewedAt = Number(raw.renewed_at);
  const parts = row.holder === null ? undefined : parseHolderToken(row.holder);
  const status =
    row.holder === null
      ? 'released'
      : row.expiresAt < at
        ? 'expired'
        : parts?.label === EVICTED
          ? 'evicted'
          : 'held';
  return {
    nodeId: row.nodeId,
    status,
    holder: row.holder,
    label: parts?.label ?? null,
    acquiredAt: parts?.acquiredAt ?? null,
    renewedAt: Number.isSafeInteger(renewedAt) ? renewedAt : 0,
    expiresAt: row.expiresAt,
    ceiling: row.ceiling,
    highWater: row.highWater,
    version: row.version,
  };
}

function refusal(r: LeaseRecord, at: number): LeaseFreeRefusedError {
  const iso = (ms: number) => new Date(ms).toISOString();
  if (r.status === 'evicted') {
    return new LeaseFreeRefusedError(
      `node id ${r.nodeId} was evicted; it frees itself at its ceiling ${iso(r.ceiling)} (in ${r.ceiling - at} ms), when its next holder can issue ids at once`,
      r.nodeId,
      'ceiling-ahead',
    );
  }
  if (r.expiresAt >= at) {
    return new LeaseFreeRefusedError(
      `node id ${r.nodeId} is held by ${r.label ?? r.holder} until ${iso(r.expiresAt)} (in ${r.expiresAt - at} ms): its holder may be running. Stop it (it releases the id on SIGTERM), wait for the lease to expire, or force: its holder then stops issuing at its next renewal, and the id frees itself at its ceiling ${iso(r.ceiling)}`,
      r.nodeId,
      'held',
    );
  }
  return new LeaseFreeRefusedError(
    `node id ${r.nodeId} expired at ${iso(r.expiresAt)}, but its ceiling ${iso(r.ceiling)} is ${r.ceiling - at} ms ahead of this clock (the holder's clock ran ahead): a holder taking it now could issue nothing until then. Wait, or force`,
    r.nodeId,
    'ceiling-ahead',
  );
}
