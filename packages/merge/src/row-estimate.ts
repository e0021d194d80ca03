import type { MergeSqlClient } from './database.js';
import { quote } from './sql.js';

/**
 * Rows of `table`, as the database estimates them where counting would read the whole table
 * (PostgreSQL's and MySQL's statistics), counted on SQLite or when there is no estimate. For
 * progress bars only.
 */
export async function estimateRows(db: MergeSqlClient, table: string): Promise<number> {
  if (db.dialect === 'postgres') {
    const [r] = await db.query<{ n: unknown }>(
      'SELECT reltuples AS n FROM pg_class WHERE oid = to_regclass(quote_ident(?))',
      [table],
    );
    if (r && Number(r.n) >= 0) return Math.round(Number(r.n));
  } else if (db.dialect === 'mysql') {
    const [r] = await db.query<{ n: unknown }>(
      'SELECT TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
      [table],
    );
    if (r && r.n !== null) return Number(r.n);
  }
  const [c] = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${quote(db.dialect, table)}`);
  return Number(c?.n ?? 0);
}
