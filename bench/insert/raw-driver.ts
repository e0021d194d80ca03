import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

type Rows = readonly (readonly unknown[])[];

/** One raw driver connection, as an application without an ORM inserts: multi-row INSERTs. */
export interface RawDriver {
  insertRows(table: string, columns: readonly string[], rows: Rows): Promise<void>;
  end(): Promise<void>;
}

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

export async function openRawDriver({ dialect, url, filename }: TestDatabase): Promise<RawDriver> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url });
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
  if (dialect === 'mysql') {
    const conn = await mysql.createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: true });
    return {
      end: () => conn.end(),
      // mysql2 expands `VALUES ?` from an array of rows on the client: one statement, one round trip.
      insertRows: async (table, columns, rows) =>
        void (await conn.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ?`, [rows])),
    };
  }
  const db = new Database(filename!);
  // What an application on SQLite typically runs: WAL, synchronous NORMAL.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, Database.Statement>();
  return {
    end: async () => void db.close(),
    async insertRows(table, columns, rows) {
      const key = `${table}/${columns.length}/${rows.length}`;
      if (!statements.has(key))
        statements.set(key, db.prepare(insertSql(table, columns, rows.length, false)));
      statements.get(key)!.run(flatValues(rows));
    },
  };
}
