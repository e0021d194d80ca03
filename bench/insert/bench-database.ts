import { createTestDatabase, type DroppableTestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Dialect } from '../fresh-database.js';

export { DATABASE_NAME } from '../fresh-database.js';
export type BenchDialect = Dialect;
export const BENCH_DIALECTS: readonly BenchDialect[] = ['postgres', 'mysql', 'sqlite'];

/** A fresh test-harness database with one raw driver connection, as an application without an ORM uses it. */
export interface BenchDatabase {
  readonly dialect: BenchDialect;
  readonly database: DroppableTestDatabase;
  exec(sql: string): Promise<void>;
  insertRows(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  /** Bytes a table takes on disk: its rows (with a clustered key) and its other indexes. */
  tableBytes(table: string): Promise<{ readonly data: number; readonly index: number }>;
  countRows(table: string): Promise<number>;
  /** The server's settings that decide how a key kind behaves once its index outgrows memory. */
  settings(): Promise<string>;
  close(): Promise<void>;
}

type Connection = Pick<BenchDatabase, 'exec' | 'insertRows' | 'tableBytes'> & { end(): unknown };

/** Creates the database and connects to it. */
export async function openBenchDatabase(dialect: BenchDialect): Promise<BenchDatabase> {
  const database = await createTestDatabase(dialect, 'bench_insert');
  try {
    const conn = await { postgres, mysql: mariadb, sqlite }[dialect](database);
    const one = async (sql: string) => (await database.query<Record<string, unknown>>(sql))[0]!;
    return {
      ...conn,
      dialect,
      database,
      countRows: async (table) => Number((await one(`SELECT COUNT(*) AS n FROM ${table}`)).n),
      async settings() {
        if (dialect === 'postgres') {
          const s = await one(
            "SELECT version() AS v, current_setting('shared_buffers') AS sb, current_setting('synchronous_commit') AS sc, current_setting('max_wal_size') AS wal",
          );
          return `${String(s.v).split(' on ')[0]}: shared_buffers ${s.sb}, synchronous_commit ${s.sc}, max_wal_size ${s.wal}`;
        }
        if (dialect === 'mysql') {
          const s = await one(
            'SELECT @@version AS v, @@innodb_buffer_pool_size AS bp, @@innodb_flush_log_at_trx_commit AS fl, @@innodb_log_file_size AS lf',
          );
          return `MariaDB ${s.v}: innodb_buffer_pool_size ${Number(s.bp) / 2 ** 20} MiB, innodb_flush_log_at_trx_commit ${s.fl}, innodb_log_file_size ${Number(s.lf) / 2 ** 20} MiB`;
        }
        const s = await one('SELECT sqlite_version() AS v');
        return `SQLite ${s.v} (better-sqlite3): journal_mode WAL, synchronous NORMAL, page cache 2 MiB (default)`;
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

function insertSql(table: string, columns: readonly string[], rows: number, numbered: boolean): string {
  let n = 0;
  const row = () => `(${columns.map(() => (numbered ? `$${++n}` : '?')).join(',')})`;
  return `INSERT INTO ${table} (${columns.join(',')}) VALUES ${Array.from({ length: rows }, row).join(',')}`;
}

async function postgres(database: DroppableTestDatabase): Promise<Connection> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const texts = new Map<string, string>();
  return {
    end: () => client.end(),
    exec: async (sql) => void (await client.query(sql)),
    async insertRows(table, columns, rows) {
      // A named statement per shape: its text built, parsed and planned once, as a pooled app's would be.
      const name = `ins_${table}_${columns.length}_${rows.length}`;
      const text = texts.get(name) ?? insertSql(table, columns, rows.length, true);
      texts.set(name, text);
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
    exec: async (sql) => void (await conn.query(sql)),
    // mysql2 expands `VALUES ?` from an array of rows on the client: one statement, one round trip.
    insertRows: async (table, columns, rows) =>
      void (await conn.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ?`, [rows])),
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
  const pages = (where: string) =>
    Number(
      (db.prepare(`SELECT COALESCE(SUM(pgsize), 0) AS n FROM dbstat WHERE ${where}`).get() as { n: number })
        .n,
    );
  return {
    end: () => db.close(),
    exec: async (sql) => void db.exec(sql),
    async insertRows(table, columns, rows) {
      const key = `${table}/${columns.length}/${rows.length}`;
      const stmt = statements.get(key) ?? db.prepare(insertSql(table, columns, rows.length, false));
      statements.set(key, stmt);
      stmt.run(flatValues(rows));
    },
    async tableBytes(table) {
      db.pragma('wal_checkpoint(TRUNCATE)');
      return {
        data: pages(`name = '${table}'`),
        index: pages(
          `name IN (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '${table}')`,
        ),
      };
    },
  };
}
