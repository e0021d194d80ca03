import type { TestDatabase } from '../helpers/test-database.js';

/** One connection of its own (a database session), raw SQL without parameters. */
export interface SqlSession {
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Opens a dedicated connection to `db` (PostgreSQL or MySQL/MariaDB), as `psql` or a job would hold one. */
export async function openSqlSession(db: TestDatabase): Promise<SqlSession> {
  if (db.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    return {
      query: async (sql) => (await client.query(sql)).rows as Record<string, unknown>[],
      close: () => client.end(),
    };
  }
  if (db.dialect === 'mysql') {
    const mysql = await import('mysql2/promise');
    const conn = await mysql.createConnection({
      uri: db.url,
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
    return {
      query: async (sql) => {
        const [rows] = await conn.query(sql);
        return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
      },
      close: () => conn.end(),
    };
  }
  throw new Error(`no SQL sessions on ${db.dialect}`);
}
