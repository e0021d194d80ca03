import { exactSqliteIntegers } from '@snowkey/core';
import * as myc from '@snowkey/drizzle/mysql-core';
import * as pgc from '@snowkey/drizzle/pg-core';
import * as litec from '@snowkey/drizzle/sqlite-core';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import * as my from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import * as pgcore from 'drizzle-orm/pg-core';
import * as lite from 'drizzle-orm/sqlite-core';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { type AdapterBench, type BenchRow, callerRows, inChunks, VARIANT_TABLE } from './adapter-bench.js';

/** SQLite: Drizzle has no exact 64-bit integer column, so a plain bigint custom type. */
const sqliteBigint = lite.customType<{ data: bigint; driverData: bigint }>({ dataType: () => 'integer' });

/** Drizzle 0.45: one `insert(table).values(...)` of 1000 rows, and of one row. */
export const drizzleBench: AdapterBench = {
  name: 'Drizzle',
  paths: [{ name: 'insert().values(1000 rows)' }, { name: 'insert().values(1 row)', single: true }],
  async open({ dialect, url, filename }, variant, generator) {
    const name = VARIANT_TABLE[variant];
    let insert: (rows: Record<string, unknown>[]) => Promise<unknown>;
    let close: () => Promise<void>;
    if (dialect === 'postgres') {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const bigint = (column: string) => pgcore.bigint(column, { mode: 'bigint' });
      const table = pgcore.pgTable(name, {
        id: {
          autoincrement: bigint('id').primaryKey().generatedAlwaysAsIdentity(),
          'hand-set': bigint('id').primaryKey(),
          snowkey: pgc.snowflakeId('id', generator).primaryKey(),
        }[variant],
        ownerId: bigint('owner_id').notNull(),
        name: pgcore.varchar('name', { length: 32 }).notNull(),
        score: pgcore.integer('score').notNull(),
        createdAt: bigint('created_at').notNull(),
      });
      const d = drizzlePg(pool);
      insert = (rows) => d.insert(table).values(rows as never);
      close = () => pool.end();
    } else if (dialect === 'mysql') {
      const exact = { supportBigNumbers: true, bigNumberStrings: true };
      const pool = mysql.createPool({ uri: url, connectionLimit: 2, ...exact });
      const bigint = (column: string) => my.bigint(column, { mode: 'bigint' });
      const table = my.mysqlTable(name, {
        id: {
          autoincrement: bigint('id').primaryKey().autoincrement(),
          'hand-set': bigint('id').primaryKey(),
          snowkey: myc.snowflakeId('id', generator).primaryKey(),
        }[variant],
        ownerId: bigint('owner_id').notNull(),
        name: my.varchar('name', { length: 32 }).notNull(),
        score: my.int('score').notNull(),
        createdAt: bigint('created_at').notNull(),
      });
      const d = drizzleMysql(pool);
      insert = (rows) => d.insert(table).values(rows as never);
      close = () => pool.end();
    } else {
      const sqlite = new Database(filename!);
      exactSqliteIntegers(sqlite);
      const table = lite.sqliteTable(name, {
        id: {
          autoincrement: lite.integer('id').primaryKey(),
          'hand-set': sqliteBigint('id').primaryKey(),
          snowkey: litec.snowflakeId('id', generator).primaryKey(),
        }[variant],
        ownerId: sqliteBigint('owner_id').notNull(),
        name: lite.text('name').notNull(),
        score: lite.integer('score').notNull(),
        createdAt: sqliteBigint('created_at').notNull(),
      });
      const d = drizzleSqlite(sqlite);
      insert = async (rows) =>
        d
          .insert(table)
          .values(rows as never)
          .run();
      close = async () => void sqlite.close();
    }
    const write = (rows: readonly BenchRow[]) => insert(callerRows(rows, variant, generator));
    return {
      writes: [(rows) => inChunks(rows, 1000, write), (rows) => inChunks(rows, 1, write)],
      close,
    };
  },
};
