import { InvalidArgumentError } from '../errors.js';
import { checkTableName, OwnTableStatements } from '../own-table.js';
import type { SqlDialect } from '../sql-client.js';

/** The default name of the lease table. */
export const DEFAULT_LEASE_TABLE = 'snowkey_node_leases';

/**
 * The lease table's DDL, the same text on every dialect.
 *
 * @example
 * await client.execute(leaseTableDdl('postgres', 'snowkey_node_leases'));
 */
export function leaseTableDdl(_dialect: SqlDialect, table: string = DEFAULT_LEASE_TABLE): string {
  // Times are ms since 1970 in BIGINT, so no dialect's date type or time zone gets involved.
  // holder: the holder's token, NULL once released. version: bumped by every write, the optimistic
  // lock of a takeover. expires_at: others may take the id once their clock passes it. ceiling: no
  // id of this node id has a later timestamp, never lowered. high_water: the highest timestamp
  // issued, as of the last renewal or release. renewed_at: the holder's clock, for operators.
  return `CREATE TABLE IF NOT EXISTS ${checkTableName(table)} (
  node_id INTEGER NOT NULL PRIMARY KEY,
  holder VARCHAR(255) NULL,
  version BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  ceiling BIGINT NOT NULL,
  high_water BIGINT NOT NULL,
  renewed_at BIGINT NOT NULL
)`;
}

/** One row of the lease table, integers converted from whatever the driver returned. */
export interface LeaseRow {
  readonly nodeId: number;
  readonly holder: string | null;
  readonly version: number;
  readonly expiresAt: number;
  readonly ceiling: number;
  readonly highWater: number;
}

/** The SQL of every lease operation on one table. Each write is one conditional statement. */
export class LeaseStatements extends OwnTableStatements {
  constructor(dialect: SqlDialect, table: string) {
    super(dialect, table, 'node_id', leaseTableDdl);
  }

  /** params: maxNodeId */
  get readAll(): string {
    return `SELECT node_id, holder, version, expires_at, ceiling, high_water FROM ${this.table} WHERE node_id <= ? ORDER BY node_id`;
  }

  /** Claims a never-used id; changes 0 rows when another process inserted it first. params: nodeId, holder, expiresAt, ceiling, highWater, renewedAt */
  get insertIfAbsent(): string {
    return this.unlessPresent(
      `INSERT INTO ${this.table} (node_id, holder, version, expires_at, ceiling, high_water, renewed_at) VALUES (?, ?, 1, ?, ?, ?, ?)`,
    );
  }

  /** Takes over an expired or released row, only if nobody wrote it since we read it. params: holder, expiresAt, ceiling, highWater, renewedAt, nodeId, version */
  get takeOver(): string {
    return `UPDATE ${this.table} SET holder = ?, version = version + 1, expires_at = ?, ceiling = ?, high_water = ?, renewed_at = ? WHERE node_id = ? AND version = ?`;
  }

  /**
   * params: expiresAt, ceiling, highWater, renewedAt, nodeId, holder.
   * Every value only grows: a renewal the caller saw fail (client-side timeout, cut socket) may
   * still run on the server after a newer one, and must not lower the ceiling the holder now uses.
   */
  get renew(): string {
    const max = this.dialect === 'sqlite' ? 'MAX' : 'GREATEST';
    return `UPDATE ${this.table} SET version = version + 1, expires_at = ${max}(expires_at, ?), ceiling = ${max}(ceiling, ?), high_water = ${max}(high_water, ?), renewed_at = ? WHERE node_id = ? AND holder = ?`;
  }

  /** params: highWater, renewedAt, nodeId, holder */
  get release(): string {
    return `UPDATE ${this.table} SET holder = NULL, version = version + 1, expires_at = 0, high_water = ?, renewed_at = ? WHERE node_id = ? AND holder = ?`;
  }
}

/** Converts a raw row (BIGINT as number, string or bigint, by driver) to a {@link LeaseRow}. */
export function parseLeaseRow(raw: Record<string, unknown>): LeaseRow {
  return {
    nodeId: toInt(raw.node_id, 'node_id'),
    holder: raw.holder === null || raw.holder === undefined ? null : String(raw.holder),
    version: toInt(raw.version, 'version'),
    expiresAt: toInt(raw.expires_at, 'expires_at'),
    ceiling: toInt(raw.ceiling, 'ceiling'),
    highWater: toInt(raw.high_water, 'high_water'),
  };
}

function toInt(value: unknown, column: string): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'bigint' || typeof value === 'string'
        ? Number(value)
        : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new InvalidArgumentError(`lease row column ${column}`, 'a safe integer', value);
  }
  return n;
}
