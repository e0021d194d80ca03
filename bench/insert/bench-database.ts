import type { TestDatabase } from '@snowkey/test-harness';
import type { Dialect } from '../fresh-database.js';

export const DIALECTS: readonly Dialect[] = ['postgres', 'mysql', 'sqlite'];

const one = async (db: TestDatabase, sql: string) =>
  (await db.query<Record<string, string | number | undefined>>(sql))[0]!;

export const countRows = async (db: TestDatabase, table: string) =>
  Number((await one(db, `SELECT COUNT(*) AS n FROM ${table}`)).n);

const pages = (where: string) => `(SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE ${where})`;
/** Bytes of a table's rows (with a clustered key: InnoDB, SQLite's rowid) and of its other indexes. */
const SIZE_SQL = {
  postgres: (t: string) => [`SELECT pg_table_size('${t}') AS data, pg_indexes_size('${t}') AS idx`],
  mysql: (t: string) => [
    `ANALYZE TABLE ${t}`,
    `SELECT data_length AS data, index_length AS idx FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = '${t}'`,
  ],
  sqlite: (t: string) => [
    'PRAGMA wal_checkpoint(TRUNCATE)',
    `SELECT ${pages(`name = '${t}'`)} AS data, ${pages(`name IN (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '${t}')`)} AS idx`,
  ],
};

export async function tableBytes(db: TestDatabase, table: string): Promise<{ data: number; index: number }> {
  const statements = SIZE_SQL[db.dialect](table);
  for (const sql of statements.slice(0, -1)) await db.query(sql);
  const s = await one(db, statements.at(-1)!);
  return { data: Number(s.data), index: Number(s.idx) };
}

/** The server's version and the settings that decide how a key behaves once its index outgrows memory. */
const SETTINGS_SQL = {
  postgres:
    "SELECT split_part(version(), ' on ', 1) || ': shared_buffers ' || current_setting('shared_buffers') || ', synchronous_commit ' || current_setting('synchronous_commit') || ', max_wal_size ' || current_setting('max_wal_size') AS s",
  mysql:
    "SELECT CONCAT('MariaDB ', @@version, ': innodb_buffer_pool_size ', @@innodb_buffer_pool_size DIV 1048576, ' MiB, innodb_flush_log_at_trx_commit ', @@innodb_flush_log_at_trx_commit, ', innodb_log_file_size ', @@innodb_log_file_size DIV 1048576, ' MiB') AS s",
  sqlite:
    "SELECT 'SQLite ' || sqlite_version() || ' (better-sqlite3): journal_mode WAL, synchronous NORMAL, page cache 2 MiB (default)' AS s",
};
export const serverSettings = async (db: TestDatabase) => String((await one(db, SETTINGS_SQL[db.dialect])).s);
