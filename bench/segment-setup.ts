import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SqlClient, sqliteSqlClient } from '@snowkey/core';
import Database from 'better-sqlite3';

/** A SQLite file of its own, removed by `close()`: the allocation table of the segment benchmark. */
export function benchDatabase(): { client: SqlClient; close(): void } {
  const file = join(tmpdir(), `snowkey-segment-bench-${process.pid}.sqlite`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  return {
    client: sqliteSqlClient(db),
    close() {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
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

/** The value at quantile `q` (0..1) of sorted `values`. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Ids per second as `12.3M`. */
export const perSecond = (n: number) => `${(n / 1e6).toFixed(2)}M`;

/** Nanoseconds as `85 ns`, `1.2 µs` or `40.1 ms`. */
export function duration(ns: number): string {
  if (ns < 1000) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1000).toFixed(1)} µs`;
  return `${(ns / 1e6).toFixed(1)} ms`;
}
