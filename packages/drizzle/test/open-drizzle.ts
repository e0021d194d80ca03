import { exactSqliteIntegers } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql, type MySql2Database } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** A Drizzle database on the harness's database, tagged with its dialect so tests can narrow it. */
export type OpenedDrizzle =
  | {
      readonly dialect: 'postgres';
      readonly db: NodePgDatabase;
      readonly pool: pg.Pool;
      close(): Promise<void>;
    }
  | {
      readonly dialect: 'mysql';
      readonly db: MySql2Database;
      readonly pool: mysql.Pool;
      close(): Promise<void>;
    }
  | {
      readonly dialect: 'sqlite';
      readonly db: BetterSQLite3Database;
      readonly sqlite: Database.Database;
      close(): Promise<void>;
    };

/**
 * Drizzle over the driver each dialect is tested with, set up as the README says: `exact` (the
 * default) gives mysql2 `supportBigNumbers` + `bigNumberStrings` and better-sqlite3
 * `exactSqliteIntegers`; `exact: false` leaves each driver at its defaults. Small pools: the
 * machine is shared.
 */
export function openDrizzle(db: TestDatabase, { exact = true }: { exact?: boolean } = {}): OpenedDrizzle {
  if (db.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    return { dialect: 'postgres', db: drizzlePg(pool), pool, close: () => pool.end() };
  }
  if (db.dialect === 'mysql') {
    const pool = mysql.createPool({
      uri: db.url,
      connectionLimit: 2,
      ...(exact ? { supportBigNumbers: true, bigNumberStrings: true } : {}),
    });
    return { dialect: 'mysql', db: drizzleMysql(pool), pool, close: () => pool.end() };
  }
  const sqlite = new Database(db.filename!);
  if (exact) exactSqliteIntegers(sqlite);
  return {
    dialect: 'sqlite',
    db: drizzleSqlite(sqlite),
    sqlite,
    close: async () => {
      sqlite.close();
    },
  };
}
