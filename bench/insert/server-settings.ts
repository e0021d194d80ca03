import type { BenchDatabase } from './bench-database.js';

/** The server's settings that decide how a key kind behaves once its index outgrows memory. */
export async function serverSettings(db: BenchDatabase): Promise<string> {
  const q = async (sql: string) => (await db.database.query<Record<string, unknown>>(sql))[0]!;
  if (db.dialect === 'postgres') {
    const v = await q('SELECT version() AS v');
    const s = await q(
      "SELECT current_setting('shared_buffers') AS sb, current_setting('synchronous_commit') AS sc, current_setting('max_wal_size') AS wal",
    );
    return `${String(v.v).split(' on ')[0]}: shared_buffers ${s.sb}, synchronous_commit ${s.sc}, max_wal_size ${s.wal}`;
  }
  if (db.dialect === 'mysql') {
    const s = await q(
      'SELECT @@version AS v, @@innodb_buffer_pool_size AS bp, @@innodb_flush_log_at_trx_commit AS fl, @@innodb_log_file_size AS lf',
    );
    return `MariaDB ${s.v}: innodb_buffer_pool_size ${Number(s.bp) / 2 ** 20} MiB, innodb_flush_log_at_trx_commit ${s.fl}, innodb_log_file_size ${Number(s.lf) / 2 ** 20} MiB`;
  }
  const s = await q('SELECT sqlite_version() AS v');
  return `SQLite ${s.v} (better-sqlite3): journal_mode WAL, synchronous NORMAL, page cache 2 MiB (default)`;
}
