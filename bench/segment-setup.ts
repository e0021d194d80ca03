import { type SqlClient, sqliteSqlClient } from '@snowkey/core';
import Database from 'better-sqlite3';
import { freshDatabase } from './fresh-database.js';

/** A SQLite file of its own (WAL), removed by `close()`: the allocation table of the segment benchmark. */
export async function benchDatabase(): Promise<{ client: SqlClient; close(): Promise<void> }> {
  const file = await freshDatabase('sqlite', `snowkey-segment-bench-${process.pid}`);
  const db = new Database(file.name);
  db.pragma('journal_mode = WAL');
  return {
    client: sqliteSqlClient(db),
    async close() {
      db.close();
      await file.drop();
    },
  };
}

/** `client` with every statement answered `delayMs` late (a distant database), and the takes counted. */
export function slowClient(client: SqlClient, delayMs: number): SqlClient & { readonly takes: number } {
  let takes = 0;
  const late = () => new Promise((resolve) => setTimeout(resolve, delayMs));
  return {
    dialect: client.dialect,
    get takes() {
      return takes;
    },
    async query(sql, params) {
      await late();
      return client.query(sql, params);
    },
    async execute(sql, params) {
      await late();
      const n = await client.execute(sql, params);
      if (sql.startsWith('UPDATE') && n === 1) takes++;
      return n;
    },
  } as SqlClient & { readonly takes: number };
}

/** Nanoseconds as `85 ns`, `1.2 µs` or `40.1 ms`. */
export function duration(ns: number): string {
  if (ns < 1000) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1000).toFixed(1)} µs`;
  return `${(ns / 1e6).toFixed(1)} ms`;
}
