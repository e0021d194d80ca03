import {
  InvalidArgumentError,
  mysqlSqlClient,
  pgSqlClient,
  type SqlClient,
  sqliteSqlClient,
} from '@snowkey/core';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { type DatabaseRef, sqliteFilename } from './database.js';

/**
 * A core `SqlClient` on `ref` through its plain driver, on a connection of its own: where a
 * `SegmentAllocator` keeps its counter. On SQLite the connection does not wait on a lock
 * (`timeout: 0`): better-sqlite3 would wait by blocking the thread, and with it the game's own
 * connection that holds the lock; the allocator retries the segment instead.
 *
 * @example
 * const counter = openCounterClient(shard.ref);
 * const ids = new SegmentAllocator({ client: counter.client, tag: 'game', retryMs: 10 });
 * // ...
 * await ids.close();
 * await counter.close();
 */
export function openCounterClient(ref: DatabaseRef): { client: SqlClient; close(): Promise<void> } {
  switch (ref.dialect) {
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: ref.url, max: 2 });
      return { client: pgSqlClient(pool), close: () => pool.end() };
    }
    case 'mysql': {
      const pool = mysql.createPool({ uri: ref.url, connectionLimit: 2 });
      return { client: mysqlSqlClient(pool), close: () => pool.end() };
    }
    case 'sqlite': {
      const db = new Database(sqliteFilename(ref.url), { timeout: 0 });
      return {
        client: sqliteSqlClient(db),
        close: async () => {
          db.close();
        },
      };
    }
    default:
      throw new InvalidArgumentError('dialect', 'postgres, mysql or sqlite', (ref as DatabaseRef).dialect);
  }
}
