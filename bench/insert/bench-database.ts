import { createTestDatabase, type DroppableTestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Dialect } from '../fresh-database.js';

export const DIALECTS: readonly Dialect[] = ['postgres', 'mysql', 'sqlite'];

type Rows = readonly (readonly unknown[])[];

/** A fresh harness database (DDL and reads through `database.query`) and one raw driver connection for the INSERTs. */
export interface BenchDatabase {
  readonly dialect: Dialect;
  readonly database: DroppableTestDatabase;
  insertRows(table: string, columns: readonly string[], rows: Rows): Promise<void>;
  close(): Promise<void>;
}

export async function openBenchDatabase(dialect: Dialect): Promise<BenchDatabase> {
  const database = await createTestDatabase(dialect, 'bench_insert');
  try {
    const driver = await { postgres, mysql: mariadb, sqlite }[dialect](database);
    return {
      dialect,
      database,
      insertRows: driver.insertRows,
      async close() {
        await driver.end();
        await database.drop();
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

const one = async (db: BenchDatabase, sql: string) =>
  (await db.database.query<Record<string, string | number | undefined>>(sql))[0]!;

export const countRows = async (db: BenchDatabase, table: string) =>
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

export async function tableBytes(db: BenchDatabase, table: string): Promise<{ data: number; index: number }> {
  const statements = SIZE_SQL[db.dialect](table);
  for (const sql of statements.slice(0, -1)) await db.database.query(sql);
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
export const serverSettings = async (db: BenchDatabase) =>
  String((await one(db, SETTINGS_SQL[db.dialect])).s);

/** The rows' values in one array (a plain loop: `flat()` cost more than the driver on 5000 values). */
function flatValues(rows: Rows): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) for (let c = 0; c < row.length; c++) values.push(row[c]);
  return values;
}

function insertSql(table: string, columns: readonly string[], rows: number, numbered: boolean): string {
  let n = 0;
  const row = () => `(${columns.map(() => (numbered ? `$${++n}` : '?')).join(',')})`;
  return `INSERT INTO ${table} (${columns.join(',')}) VALUES ${Array.from({ length: rows }, row).join(',')}`;
}

type Driver = Pick<BenchDatabase, 'insertRows'> & { end(): unknown };

async function postgres(database: DroppableTestDatabase): Promise<Driver> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const texts = new Map<string, string>();
  return {
    end: () => client.end(),
    async insertRows(table, columns, rows) {
      // A named statement per shape: its text built, parsed and planned once, as a pooled app's would be.
      const name = `ins_${table}_${columns.length}_${rows.length}`;
      if (!texts.has(name)) texts.set(name, insertSql(table, columns, rows.length, true));
      await client.query({ name, text: texts.get(name)!, values: flatValues(rows) });
    },
  };
}

async function mariadb(database: DroppableTestDatabase): Promise<Driver> {
  const conn = await mysql.createConnection({
    uri: database.url,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    end: () => conn.end(),
    // mysql2 expands `VALUES ?` from an array of rows on the client: one statement, one round trip.
    insertRows: async (table, columns, rows) =>
      void (await conn.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ?`, [rows])),
  };
}

function sqlite(database: DroppableTestDatabase): Driver {
  const db = new Database(database.filename!);
  // What an application on SQLite typically runs: WAL, synchronous NORMAL.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, Database.Statement>();
  return {
    end: () => db.close(),
    async insertRows(table, columns, rows) {
      const key = `${table}/${columns.length}/${rows.length}`;
      if (!statements.has(key))
        statements.set(key, db.prepare(insertSql(table, columns, rows.length, false)));
      statements.get(key)!.run(flatValues(rows));
    },
  };
}
