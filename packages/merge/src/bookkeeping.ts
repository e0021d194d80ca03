import type { MergeSqlClient } from './database.js';
import { MergeInputsChangedError } from './errors.js';
import { quote } from './sql.js';

/** A job's bookkeeping lives in the target under its own prefix. */
export type Job = 'merge' | 'rekey';

/**
 * The names of the engine's tables in the target database. Each batch commits its rows and its
 * progress row in one transaction.
 */
export const BOOKKEEPING_TABLES = {
  mergeInputs: 'snowkey_merge_inputs',
  mergeProgress: 'snowkey_merge_progress',
  renames: 'snowkey_merge_renames',
  skips: 'snowkey_merge_skips',
  collisions: 'snowkey_merge_collisions',
  rekeyInputs: 'snowkey_rekey_inputs',
  rekeyProgress: 'snowkey_rekey_progress',
  rekeyMap: 'snowkey_rekey_map',
} as const;

const T = BOOKKEEPING_TABLES;

function ddl(job: Job, dialect: string): string[] {
  const p = job === 'merge' ? 'snowkey_merge_' : 'snowkey_rekey_';
  const tables = [
    // The first run's inputs and the facts it fixed (rows already in the target, the rekey's
    // first timestamp): a resume with other inputs is refused, and a resume reuses the facts.
    `CREATE TABLE IF NOT EXISTS ${p}inputs (
  id INT NOT NULL PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  facts TEXT NOT NULL
)`,
    // One row per (phase, table, source): how far it got, saved in each chunk's own transaction.
    `CREATE TABLE IF NOT EXISTS ${p}progress (
  phase VARCHAR(16) NOT NULL,
  table_name VARCHAR(128) NOT NULL,
  source_position INT NOT NULL,
  last_key TEXT,
  rows_done BIGINT NOT NULL,
  rows_copied BIGINT NOT NULL,
  rows_skipped BIGINT NOT NULL,
  collisions BIGINT NOT NULL,
  renames BIGINT NOT NULL,
  done INT NOT NULL,
  PRIMARY KEY (phase, table_name, source_position)
)`,
  ];
  if (job === 'merge') {
    tables.push(
      `CREATE TABLE IF NOT EXISTS ${T.renames} (
  table_name VARCHAR(128) NOT NULL,
  row_key VARCHAR(255) NOT NULL,
  column_name VARCHAR(128) NOT NULL,
  source_label VARCHAR(64) NOT NULL,
  old_value TEXT NOT NULL,
  new_value TEXT NOT NULL,
  PRIMARY KEY (table_name, row_key, column_name)
)`,
      // A source row left out under a skip policy, and the target row that holds its unique value:
      // references to the left-out row are written as references to that one.
      `CREATE TABLE IF NOT EXISTS ${T.skips} (
  table_name VARCHAR(128) NOT NULL,
  source_position INT NOT NULL,
  row_key VARCHAR(255) NOT NULL,
  target_key VARCHAR(255) NOT NULL,
  constraint_name VARCHAR(128) NOT NULL,
  PRIMARY KEY (table_name, source_position, row_key)
)`,
      `CREATE TABLE IF NOT EXISTS ${T.collisions} (
  table_name VARCHAR(128) NOT NULL,
  source_position INT NOT NULL,
  row_key VARCHAR(255) NOT NULL,
  PRIMARY KEY (table_name, source_position, row_key)
)`,
    );
  } else {
    tables.push(`CREATE TABLE IF NOT EXISTS ${T.rekeyMap} (
  table_name VARCHAR(128) NOT NULL,
  old_id BIGINT NOT NULL,
  new_id BIGINT NOT NULL,
  PRIMARY KEY (table_name, old_id)
)`);
    // SQLite: the map is looked up by its key for every reference; keep the rows in the key's tree.
    if (dialect === 'sqlite') tables[tables.length - 1] += ' WITHOUT ROWID';
  }
  return tables;
}

/** Creates the job's tables in the target when they are missing. */
export async function ensureBookkeeping(db: MergeSqlClient, job: Job): Promise<void> {
  // MySQL: keys and values recorded byte for byte (`Aria` and `aria` are two keys).
  const tail = db.dialect === 'mysql' ? ' DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin' : '';
  for (const sql of ddl(job, db.dialect)) await db.execute(sql + tail);
}

/**
 * Records the job's inputs on its first run, or checks them on a later one; resolves to the facts
 * the first run fixed. `facts` is called only on the first run.
 */
export async function claimInputs<F>(
  db: MergeSqlClient,
  job: Job,
  fingerprint: string,
  facts: () => Promise<F>,
): Promise<F> {
  const table = job === 'merge' ? T.mergeInputs : T.rekeyInputs;
  const [saved] = await db.query<{ fingerprint: string; facts: string }>(
    `SELECT fingerprint, facts FROM ${table} WHERE id = 1`,
  );
  if (saved) {
    if (saved.fingerprint !== fingerprint)
      throw new MergeInputsChangedError(job, saved.fingerprint, fingerprint);
    return JSON.parse(saved.facts) as F;
  }
  const fresh = await facts();
  await db.execute(`INSERT INTO ${table} (id, fingerprint, facts) VALUES (1, ?, ?)`, [
    fingerprint,
    JSON.stringify(fresh),
  ]);
  return fresh;
}

/** The phases of a job, in the order they run. */
export type Phase = 'stage' | 'analyze' | 'map' | 'copy' | 'link';

/** How far one (phase, table, source) got, and what it did so far. */
export interface ProgressRow {
  readonly phase: Phase;
  readonly table: string;
  readonly source: number;
  /** How far it got: a key of the source (stage) or a staging sequence number (later phases), as text. */
  readonly lastKey: string | null;
  /** Source rows read and dealt with. */
  readonly rowsDone: number;
  readonly copied: number;
  readonly skipped: number;
  readonly collisions: number;
  readonly renames: number;
  readonly done: boolean;
}

const progressTable = (job: Job) => (job === 'merge' ? T.mergeProgress : T.rekeyProgress);

/** Every progress row of the job, or none before its first batch. */
export async function readProgress(db: MergeSqlClient, job: Job): Promise<ProgressRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT phase, table_name, source_position, last_key, rows_done, rows_copied, rows_skipped, collisions, renames, done FROM ${progressTable(job)}`,
  );
  return rows.map((r) => ({
    phase: String(r.phase) as ProgressRow['phase'],
    table: String(r.table_name),
    source: Number(r.source_position),
    lastKey: r.last_key === null ? null : String(r.last_key),
    rowsDone: Number(r.rows_done),
    copied: Number(r.rows_copied),
    skipped: Number(r.rows_skipped),
    collisions: Number(r.collisions),
    renames: Number(r.renames),
    done: Number(r.done) === 1,
  }));
}

/** Saves `p` inside the batch's transaction. */
export async function saveProgress(
  tx: MergeSqlClient,
  job: Job,
  p: ProgressRow,
  isNew: boolean,
): Promise<void> {
  const values = [p.lastKey, p.rowsDone, p.copied, p.skipped, p.collisions, p.renames, p.done ? 1 : 0];
  const table = progressTable(job);
  if (isNew) {
    await tx.execute(
      `INSERT INTO ${table} (last_key, rows_done, rows_copied, rows_skipped, collisions, renames, done, phase, table_name, source_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [...values, p.phase, p.table, p.source],
    );
    return;
  }
  await tx.execute(
    `UPDATE ${table} SET last_key = ?, rows_done = ?, rows_copied = ?, rows_skipped = ?, collisions = ?, renames = ?, done = ? WHERE phase = ? AND table_name = ? AND source_position = ?`,
    [...values, p.phase, p.table, p.source],
  );
}

/** Deletes the job's progress rows of the given phases (a phase to run again). */
export async function forgetProgress(db: MergeSqlClient, job: Job, phases: readonly Phase[]): Promise<void> {
  await db.execute(`DELETE FROM ${progressTable(job)} WHERE phase IN (${phases.map(() => '?').join(', ')})`, [
    ...phases,
  ]);
}

/** Whether the target has the table (used before the job's tables exist). */
export async function hasTable(db: MergeSqlClient, name: string): Promise<boolean> {
  const sql =
    db.dialect === 'postgres'
      ? 'SELECT 1 AS x FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?'
      : db.dialect === 'mysql'
        ? 'SELECT 1 AS x FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?'
        : "SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?";
  return (await db.query(sql, [name])).length > 0;
}

/** `SELECT COUNT(*)` of a table, as a number. */
export async function countRows(db: MergeSqlClient, table: string): Promise<number> {
  const [row] = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${quote(db.dialect, table)}`);
  return Number(row?.n ?? 0);
}

/** Replaces the facts a job's first run recorded (a merge whose policies changed before it wrote). */
export async function saveFacts(db: MergeSqlClient, job: Job, facts: unknown): Promise<void> {
  await db.execute(`UPDATE ${job === 'merge' ? T.mergeInputs : T.rekeyInputs} SET facts = ? WHERE id = 1`, [
    JSON.stringify(facts),
  ]);
}
