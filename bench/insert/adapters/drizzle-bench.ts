import type { IdGenerator } from '@snowkey/core';
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
import type { BenchDatabase } from '../bench-database.js';
import {
  type AdapterBench,
  type BenchRow,
  callerRows,
  inChunks,
  VARIANT_TABLE,
  type Variant,
  type WritePath,
} from './adapter-bench.js';

const paths = {
  insert: { name: 'insert().values(1000 rows)', rowsPerCall: 1000 },
  single: { name: 'insert().values(1 row)', rowsPerCall: 1 },
} satisfies Record<string, WritePath>;

/** SQLite: Drizzle has no exact 64-bit integer column, so a plain bigint custom type. */
const sqliteBigint = lite.customType<{ data: bigint; driverData: bigint }>({ dataType: () => 'integer' });

/** One variant's table and an insert that runs it: what differs between dialects. */
interface Opened {
  insert(rows: Record<string, unknown>[]): Promise<unknown>;
  close(): Promise<void>;
}

function openPg(db: BenchDatabase, variant: Variant, generator: IdGenerator): Opened {
  const pool = new pg.Pool({ connectionString: db.database.url, max: 2 });
  const d = drizzlePg(pool);
  const id = {
    autoincrement: pgcore.bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    'hand-set': pgcore.bigint('id', { mode: 'bigint' }).primaryKey(),
    snowkey: pgc.snowflakeId('id', generator).primaryKey(),
  }[variant];
  const table = pgcore.pgTable(VARIANT_TABLE[variant], {
    id,
    ownerId: pgcore.bigint('owner_id', { mode: 'bigint' }).notNull(),
    name: pgcore.varchar('name', { length: 32 }).notNull(),
    score: pgcore.integer('score').notNull(),
    createdAt: pgcore.bigint('created_at', { mode: 'bigint' }).notNull(),
  });
  return { insert: (rows) => d.insert(table).values(rows as never), close: () => pool.end() };
}

function openMysql(db: BenchDatabase, variant: Variant, generator: IdGenerator): Opened {
  const pool = mysql.createPool({
    uri: db.database.url,
    connectionLimit: 2,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  const d = drizzleMysql(pool);
  const id = {
    autoincrement: my.bigint('id', { mode: 'bigint' }).primaryKey().autoincrement(),
    'hand-set': my.bigint('id', { mode: 'bigint' }).primaryKey(),
    snowkey: myc.snowflakeId('id', generator).primaryKey(),
  }[variant];
  const table = my.mysqlTable(VARIANT_TABLE[variant], {
    id,
    ownerId: my.bigint('owner_id', { mode: 'bigint' }).notNull(),
    name: my.varchar('name', { length: 32 }).notNull(),
    score: my.int('score').notNull(),
    createdAt: my.bigint('created_at', { mode: 'bigint' }).notNull(),
  });
  return { insert: (rows) => d.insert(table).values(rows as never), close: () => pool.end() };
}

function openSqlite(db: BenchDatabase, variant: Variant, generator: IdGenerator): Opened {
  const sqlite = new Database(db.database.filename!);
  exactSqliteIntegers(sqlite);
  const d = drizzleSqlite(sqlite);
  const id = {
    autoincrement: lite.integer('id').primaryKey(),
    'hand-set': sqliteBigint('id').primaryKey(),
    snowkey: litec.snowflakeId('id', generator).primaryKey(),
  }[variant];
  const table = lite.sqliteTable(VARIANT_TABLE[variant], {
    id,
    ownerId: sqliteBigint('owner_id').notNull(),
    name: lite.text('name').notNull(),
    score: lite.integer('score').notNull(),
    createdAt: sqliteBigint('created_at').notNull(),
  });
  return {
    insert: async (rows) =>
      d
        .insert(table)
        .values(rows as never)
        .run(),
    close: async () => {
      sqlite.close();
    },
  };
}

/** Drizzle 0.45: one `insert(table).values(...)` of 1000 rows, and of one row. */
export const drizzleBench: AdapterBench = {
  name: 'Drizzle',
  paths: Object.values(paths),
  async open(db, variant, generator) {
    const opened = (db.dialect === 'postgres' ? openPg : db.dialect === 'mysql' ? openMysql : openSqlite)(
      db,
      variant,
      generator,
    );
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      async write(path, rows) {
        if (path === paths.insert) await inChunks(rows, 1000, (c) => opened.insert(withIds(c)));
        else for (const row of rows) await opened.insert(withIds([row]));
      },
      close: () => opened.close(),
    };
  },
};
