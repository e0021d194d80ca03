import { mysqlSqlClient, pgSqlClient, type SqlClient, sqliteSqlClient } from '@snowkey/core';
import type { TestDatabase } from '../helpers/test-database.js';

/** A core SqlClient over its own plain driver connection to `db`, and a way to cut it. */
export interface OpenedSqlClient {
  readonly client: SqlClient;
  /** Closes the connection: every later call through `client` fails, like a cut connection. */
  close(): Promise<void>;
}

/** Opens a fresh driver connection (pg Pool, mysql2 pool, better-sqlite3) to `db`, wrapped by core's factory. */
export async function openSqlClient(db: TestDatabase): Promise<OpenedSqlClient> {
  if (db.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => {});
    return { client: pgSqlClient(pool), close: () => pool.end() };
  }
  if (db.dialect === 'mysql') {
    const mysql = await import('mysql2/promise');
    const pool = mysql.createPool({ uri: db.url, connectionLimit: 2 });
    return { client: mysqlSqlClient(pool), close: () => pool.end() };
  }
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(db.filename!);
  return {
    client: sqliteSqlClient(conn),
    close: async () => {
      conn.close();
    },
  };
}
