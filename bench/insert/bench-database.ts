import { createTestDatabase, type DroppableTestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

import type { Dialect } from '../fresh-database.js';

export { DATABASE_NAME } from '../fresh-database.js';
export type BenchDialect = Dialect;
export const BENCH_DIALECTS: readonly BenchDialect[] = ['postgres', 'mysql', 'sqlite'];

/** Bytes a table takes on disk: its rows (with a clustered key) and its other indexes. */
export interface TableBytes {
  readonly data: number;
  readonly index: number;
}

/** A fresh test-harness database with one raw driver connection, as an application without an ORM uses it. */
export interface BenchDatabase {
  readonly dialect: BenchDialect;
  readonly database: DroppableTestDatabase;
  exec(sql: string, values?: unknown[]): Promise<void>;
  insertRows(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  tableBytes(table: string): Promise<TableBytes>;
  countRows(table: string): Promise<number>;
  close(): Promise<void>;
}

type Connection = Pick<BenchDatabase, 'exec' | 'insertRows' | 'tableBytes'> & { end(): unknown };

/** Creates the database and connects to it. */
export async function openBenchDatabase(dialect: BenchDialect): Promise<BenchDatabase> {
  const database = await createTestDatabase(dialect, 'bench_insert');
  try {
    const conn =
      dialect === 'postgres'
        ? await postgres(database)
        : dialect === 'mysql'
          ? await mariadb(database)
          : sqlite(database);
    return {
      ...conn,
      dialect,
      database,
      async countRows(table) {
        const [row] = await database.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table}`);
        return Number(row!.n);
      },
      async close() {
        await conn.end();
        await database.drop();
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/** The rows' values in one array (a plain loop: `flat()` cost more than the driver on 5000 values). */
function flatValues(rows: readonly (readonly unknown[])[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) for (let c = 0; c < row.length; c++) values.push(row[c]);
  return values;
}

function placeholders(columns: number, rows: number, numbered: boolean): string {
  let n = 0;
  const row = () => `(${Array.from({ length: columns }, () => (numbered ? `$${++n}` : '?')).join(',')})`;
  return Array.from({ length: rows }, row).join(',');
}

async function postgres(database: DroppableTestDatabase): Promise<Connection> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const texts = new Map<string, string>();
  return {
    end: () => client.end(),
    exec: async (sql, values) => {
      await client.query(sql, values);
    },
    async insertRows(table, columns, rows) {
      // A named statement per shape: its text built, parsed and planned once, as a pooled app's would be.
      const name = `ins_${table}_${columns.length}_${rows.length}`;
      let text = texts.get(name);
      if (text === undefined) {
        text = `INSERT INTO ${table} (${columns.join(',')}) VALUES ${placeholders(columns.length, rows.length, true)}`;
        texts.set(name, text);
      }
      await client.query({ name, text, values: flatValues(rows) });
    },
    async tableBytes(table) {
      const { rows } = await client.query<{ data: string; index: string }>(
        'SELECT pg_table_size($1) AS data, pg_indexes_size($1) AS index',
        [table],
      );
      return { data: Number(rows[0]!.data), index: Number(rows[0]!.index) };
    },
  };
}

async function mariadb(database: DroppableTestDatabase): Promise<Connection> {
  const conn = await mysql.createConnection({
    uri: database.url,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    end: () => conn.end(),
    exec: async (sql, values) => {
      await conn.query(sql, values);
    },
    async insertRows(table, columns, rows) {
      // mysql2 expands `VALUES ?` from an array of rows on the client: one statement, one round trip.
      await conn.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ?`, [rows]);
    },
    async tableBytes(table) {
      // InnoDB keeps the rows in the primary key's tree: data_length is table + key, index_length the rest.
      await conn.query(`ANALYZE TABLE ${table}`);
      const [rows] = await conn.query<mysql.RowDataPacket[]>(
        'SELECT data_length AS data, index_length AS idx FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
        [table],
      );
      return { data: Number(rows[0]!.data), index: Number(rows[0]!.idx) };
    },
  };
}

function sqlite(database: DroppableTestDatabase): Connection {
  const db = new Database(database.filename!);
  // What an application on SQLite typically runs: WAL, synchronous NORMAL.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, Database.Statement>();
  return {
    end: () => db.close(),
    exec: async (sql, values) => {
      if (values === undefined) db.exec(sql);
      else db.prepare(sql).run(values);
    },
    async insertRows(table, columns, rows) {
      const key = `${table}/${columns.length}/${rows.length}`;
      let stmt = statements.get(key);
      if (!stmt) {
        stmt = db.prepare(
          `INSERT INTO ${table} (${columns.join(',')}) VALUES ${placeholders(columns.length, rows.length, false)}`,
        );
        statements.set(key, stmt);
      }
      stmt.run(flatValues(rows));
    },
    async tableBytes(table) {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const sum = (where: string) =>
        Number(
          (
            db.prepare(`SELECT COALESCE(SUM(pgsize), 0) AS n FROM dbstat WHERE ${where}`).get() as {
              n: number;
            }
          ).n,
        );
      return {
        data: sum(`name = '${table}'`),
        index: sum(`name IN (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '${table}')`),
      };
    },
  };
}
