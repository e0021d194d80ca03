import { InvalidArgumentError, parseId } from '@snowkey/core';
import type { Knex } from 'knex';

/**
 * The merge's own tables in the target database, committed with every batch.
 *
 * @example
 * await target(MERGE_TABLES.renames).select(); // the rename list
 */
export const MERGE_TABLES = {
  sources: 'snowkey_merge_sources',
  progress: 'snowkey_merge_progress',
  renames: 'snowkey_merge_renames',
  collisions: 'snowkey_merge_collisions',
} as const;

const DDL = [
  // The servers of the merge in their order, fixed by its first run: renames go to whoever comes
  // first, so a resume in another order would end in a state no uninterrupted run produces.
  `CREATE TABLE IF NOT EXISTS ${MERGE_TABLES.sources} (
  source_position INT NOT NULL PRIMARY KEY,
  source_server INT NOT NULL
)`,
  // One row per (table, source server): the last id copied. Saved in the batch's own transaction,
  // so after a crash it names exactly the rows that are in the target.
  `CREATE TABLE IF NOT EXISTS ${MERGE_TABLES.progress} (
  table_name VARCHAR(64) NOT NULL,
  source_server INT NOT NULL,
  last_id BIGINT NOT NULL,
  rows_copied BIGINT NOT NULL,
  collisions BIGINT NOT NULL,
  done INT NOT NULL,
  PRIMARY KEY (table_name, source_server)
)`,
  `CREATE TABLE IF NOT EXISTS ${MERGE_TABLES.renames} (
  table_name VARCHAR(64) NOT NULL,
  entity_id BIGINT NOT NULL,
  source_server INT NOT NULL,
  old_name VARCHAR(64) NOT NULL,
  new_name VARCHAR(64) NOT NULL,
  PRIMARY KEY (table_name, entity_id)
)`,
  // A source row whose key already belonged to a different row in the target: it was not copied.
  `CREATE TABLE IF NOT EXISTS ${MERGE_TABLES.collisions} (
  table_name VARCHAR(64) NOT NULL,
  source_server INT NOT NULL,
  entity_id BIGINT NOT NULL,
  PRIMARY KEY (table_name, source_server, entity_id)
)`,
];

/**
 * Creates the merge's bookkeeping tables in the target if they are missing.
 *
 * @example
 * await ensureMergeTables(target);
 */
export async function ensureMergeTables(db: Knex): Promise<void> {
  for (const sql of DDL) await db.raw(sql);
}

/**
 * Records the order of the merge's servers on its first run and, on every later run, checks that
 * it is the same: an `InvalidArgumentError` naming `sources` otherwise, before anything is copied.
 *
 * @example
 * await claimSourceOrder(target, [1, 2]); // first run: saved
 * await claimSourceOrder(target, [2, 1]); // throws: "sources" must be ... S1, S2 (received "S2, S1")
 */
export async function claimSourceOrder(db: Knex, serverIds: readonly number[]): Promise<void> {
  await db.transaction(async (trx) => {
    const rows = await trx(MERGE_TABLES.sources).select('source_server').orderBy('source_position');
    const saved = rows.map((r: { source_server: unknown }) => Number(r.source_server));
    if (saved.length === 0) {
      await trx(MERGE_TABLES.sources).insert(
        serverIds.map((s, i) => ({ source_position: i, source_server: s })),
      );
      return;
    }
    const label = (ids: readonly number[]) => ids.map((s) => `S${s}`).join(', ');
    if (label(saved) !== label(serverIds)) {
      throw new InvalidArgumentError(
        'sources',
        `the servers of the merge begun on this target, in its order: ${label(saved)}`,
        label(serverIds),
      );
    }
  });
}

/** How far the merge of one table from one source got. */
export interface ProgressRow {
  readonly table: string;
  readonly serverId: number;
  readonly lastId: bigint;
  readonly rowsCopied: number;
  readonly collisions: number;
  readonly done: boolean;
}

/**
 * The saved progress of `table` from `serverId`, or a fresh start.
 *
 * @example
 * await readProgress(target, 'players', 2); // { lastId: 7392...n, rowsCopied: 500, done: false, ... }
 */
export async function readProgress(
  db: Knex | Knex.Transaction,
  table: string,
  serverId: number,
): Promise<ProgressRow> {
  const row = await db(MERGE_TABLES.progress).where({ table_name: table, source_server: serverId }).first();
  if (!row) return { table, serverId, lastId: -1n, rowsCopied: 0, collisions: 0, done: false };
  return {
    table,
    serverId,
    lastId: BigInt(row.last_id),
    rowsCopied: Number(row.rows_copied),
    collisions: Number(row.collisions),
    done: Number(row.done) === 1,
  };
}

/**
 * Saves `progress` (inside the batch's transaction, so it commits with the batch's rows).
 *
 * @example
 * await target.transaction(async (trx) => { await insertRows(trx); await saveProgress(trx, next); });
 */
export async function saveProgress(trx: Knex.Transaction, p: ProgressRow): Promise<void> {
  const values = {
    last_id: p.lastId,
    rows_copied: p.rowsCopied,
    collisions: p.collisions,
    done: p.done ? 1 : 0,
  };
  const key = { table_name: p.table, source_server: p.serverId };
  const updated = await trx(MERGE_TABLES.progress).where(key).update(values);
  if (Number(updated) === 0) await trx(MERGE_TABLES.progress).insert({ ...key, ...values });
}

/** One recorded rename. */
export interface RenameRecord {
  readonly table: string;
  readonly id: bigint;
  readonly serverId: number;
  readonly oldName: string;
  readonly newName: string;
}

/**
 * Every rename the merge made, by table then id.
 *
 * @example
 * await readRenames(target); // [{ table: 'players', id: 7392...n, serverId: 2, oldName: 'Aria', newName: 'Aria.S2' }]
 */
export async function readRenames(db: Knex): Promise<RenameRecord[]> {
  const rows = await db(MERGE_TABLES.renames)
    .select()
    .orderBy([{ column: 'table_name' }, { column: 'entity_id' }]);
  return rows.map((r: Record<string, unknown>) => ({
    table: String(r.table_name),
    id: parseId(r.entity_id),
    serverId: Number(r.source_server),
    oldName: String(r.old_name),
    newName: String(r.new_name),
  }));
}

/** The whole merge so far, over every run on one target. */
export interface MergeTotals {
  /** Rows copied into the target. */
  readonly rowsCopied: number;
  /** Source rows left out because their key was taken. */
  readonly collisions: number;
  /** Player and guild names changed, each in `snowkey_merge_renames`. */
  readonly renames: number;
}

/**
 * What the merge has done so far on `db`, read from its bookkeeping (committed with each batch, so
 * a resumed or repeated merge reads the same totals as an uninterrupted one).
 *
 * @example
 * await readMergeTotals(target); // { rowsCopied: 19195, collisions: 0, renames: 75 }
 */
export async function readMergeTotals(db: Knex): Promise<MergeTotals> {
  const [p] = await db(MERGE_TABLES.progress).sum({ rows: 'rows_copied', collisions: 'collisions' });
  const [r] = await db(MERGE_TABLES.renames).count({ n: '*' });
  const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
  return {
    rowsCopied: num((p as { rows: unknown }).rows),
    collisions: num((p as { collisions: unknown }).collisions),
    renames: num((r as { n: unknown }).n),
  };
}

/**
 * Key collisions the merge met, per table (rows not copied because their key was taken).
 *
 * @example
 * await countCollisions(target); // { players: 0, guilds: 0, ... } with snowflake keys
 */
export async function countCollisions(db: Knex): Promise<Record<string, number>> {
  const rows = await db(MERGE_TABLES.collisions).select('table_name').count({ n: '*' }).groupBy('table_name');
  return Object.fromEntries(rows.map((r: Record<string, unknown>) => [String(r.table_name), Number(r.n)]));
}

/**
 * The ids from `serverId` that collided in `table`.
 *
 * @example
 * await collidedIds(target, 'players', 2); // Set { 1n, 2n, ... } with AUTO_INCREMENT keys
 */
export async function collidedIds(db: Knex, table: string, serverId: number): Promise<Set<bigint>> {
  const rows = await db(MERGE_TABLES.collisions)
    .select('entity_id')
    .where({ table_name: table, source_server: serverId });
  return new Set(rows.map((r: { entity_id: unknown }) => parseId(r.entity_id)));
}
