import { createTestDatabase, type DroppableTestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type BenchDialect = 'postgres' | 'mysql' | 'sqlite';

export const BENCH_DIALECTS: readonly BenchDialect[] = ['postgres', 'mysql', 'sqlite'];

/** Each dialect's database as the reports and charts name it. */
export const DATABASE_NAME: Readonly<Record<BenchDialect, string>> = {
  postgres: 'PostgreSQL',
  mysql: 'MariaDB',
  sqlite: 'SQLite',
};

/** Bytes a table takes on disk: its rows (for clustered tables, the primary key with them) and its other indexes. */
export interface TableBytes {
  readonly data: number;
  readonly index: number;
}

/**
 * A fresh database of the bench's own (created and dropped through the test harness, so it follows
 * the same SNOWKEY_PG_URL / SNOWKEY_MYSQL_URL settings) with one raw driver connection: node-postgres,
 * mysql2 or better-sqlite3, as an application without an ORM would use them.
 */
export interface BenchDatabase {
  readonly dialect: BenchDialect;
  readonly database: DroppableTestDatabase;
  /** Runs one statement that returns nothing the bench needs, with `values` bound to its placeholders. */
  exec(sql: string, values?: unknown[]): Promise<void>;
  /** One multi-row INSERT of `rows` (each the values of `columns`), in its own transaction. */
  insertRows(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  tableBytes(table: string): Promise<TableBytes>;
  /** `SELECT COUNT(*)`: the bench checks every load stored what it wrote. */
  countRows(table: string): Promise<number>;
  close(): Promise<void>;
}

/** Creates the database and connects to it. */
export async function openBenchDatabase(dialect: BenchDialect): Promise<BenchDatabase> {
  const database = await createTestDatabase(dialect, 'bench_insert');
  try {
    const db =
      dialect === 'postgres'
        ? await postgres(database)
        : dialect === 'mysql'
          ? await mariadb(database)
          : sqlite(database);
    return {
      ...db,
      async countRows(table) {
        const [row] = await database.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table}`);
        return Number(row!.n);
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/** The rows' values in one array, row after row, as a statement with one placeholder per value binds them. */
function flatValues(rows: readonly (readonly unknown[])[]): unknown[] {
  // A plain loop: Array.prototype.flat cost more than the driver's own work on 5000 values.
  const values: unknown[] = [];
  for (const row of rows) for (let c = 0; c < row.length; c++) values.push(row[c]);
  return values;
}

function placeholders(columns: number, rows: number, numbered: boolean): string {
  let n = 0;
  const row = () => `(${Array.from({ length: columns }, () => (numbered ? `$${++n}` : '?')).join(',')})`;
  return Array.from({ length: rows }, row).join(',');
}

async function postgres(database: DroppableTestDatabase): Promise<Omit<BenchDatabase, 'countRows'>> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const texts = new Map<string, string>();
  return {
    dialect: 'postgres',
    database,
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
    async close() {
      await client.end();
      await database.drop();
    },
  };
}

async function mariadb(database: DroppableTestDatabase): Promise<Omit<BenchDatabase, 'countRows'>> {
  const conn = await mysql.createConnection({
    uri: database.url,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    dialect: 'mysql',
    database,
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
    async close() {
      await conn.end();
      await database.drop();
    },
  };
}

function sqlite(database: DroppableTestDatabase): Omit<BenchDatabase, 'countRows'> {
  const db = new Database(database.filename!);
  // What an application on SQLite typically runs: WAL, synchronous NORMAL.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, Database.Statement>();
  return {
    dialect: 'sqlite',
    database,
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
    async close() {
      db.close();
      await database.drop();
    },
  };
}
