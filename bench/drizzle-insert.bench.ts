// Inserts through Drizzle into a real database, with the id from @snowkey/drizzle's snowflakeId
// column against the same Snowflake behind a bare Drizzle column: what the adapter's checks (core's
// caller-id rule on the way in, parseId on the way out) cost on the real job. Never part of `pnpm test`.
//
//   pnpm --filter @snowkey/bench drizzle                  # every dialect, 3 rounds
//   DIALECTS=sqlite BENCH_ROUNDS=5 pnpm --filter @snowkey/bench drizzle

import { type IdGenerator, Snowflake } from '@snowkey/core';
import { exactSqliteIntegers } from '@snowkey/drizzle';
import * as myc from '@snowkey/drizzle/mysql-core';
import * as pgc from '@snowkey/drizzle/pg-core';
import * as litec from '@snowkey/drizzle/sqlite-core';
import type { TestDatabase } from '@snowkey/test-harness';
import { createTestDatabase, selectedDialects } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import * as my from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import * as pgcore from 'drizzle-orm/pg-core';
import * as lite from 'drizzle-orm/sqlite-core';
import mysql from 'mysql2/promise';
import pg from 'pg';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SINGLE = 1000;
const BULK_STATEMENTS = 10; // one per slice
const BULK_ROWS = 1000;

/** One way of declaring the key: how a dialect's table is built and how one insert returns its ids. */
interface Variant {
  readonly name: string;
  /** Inserts `rows` in one statement and resolves to their ids. */
  insert(rows: { name: string; qty: number }[]): Promise<unknown[]>;
}

/** A bare Drizzle custom column: SQL bigint, TS bigint, no checks (the baseline). */
const bare = {
  pg: pgcore.customType<{ data: bigint; driverData: string }>({
    dataType: () => 'bigint',
    toDriver: String,
    fromDriver: BigInt,
  }),
  mysql: my.customType<{ data: bigint; driverData: string | number }>({
    dataType: () => 'bigint',
    fromDriver: BigInt,
  }),
  sqlite: lite.customType<{ data: bigint; driverData: number | bigint }>({
    dataType: () => 'bigint',
    fromDriver: BigInt,
  }),
};

function variants(db: TestDatabase, generator: IdGenerator): { variants: Variant[]; close(): Promise<void> } {
  const next = () => generator.nextId();
  if (db.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const d = drizzlePg(pool);
    const table = (id: pgcore.PgColumnBuilderBase) =>
      pgcore.pgTable('bench_rows', {
        id,
        name: pgcore.varchar({ length: 40 }).notNull(),
        qty: pgcore.integer().notNull(),
      });
    const make = (name: string, t: ReturnType<typeof table>): Variant => ({
      name,
      insert: async (rows) => (await d.insert(t).values(rows).returning({ id: t.id })).map((r) => r.id),
    });
    return {
      variants: [
        make('snowflakeId (@snowkey/drizzle)', table(pgc.snowflakeId(generator).primaryKey())),
        make('bare custom column + $defaultFn', table(bare.pg().primaryKey().$defaultFn(next))),
        make(
          "Drizzle's bigint mode + $defaultFn",
          table(pgcore.bigint({ mode: 'bigint' }).primaryKey().$defaultFn(next)),
        ),
      ],
      close: () => pool.end(),
    };
  }
  if (db.dialect === 'mysql') {
    const pool = mysql.createPool({
      uri: db.url,
      connectionLimit: 2,
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
    const d = drizzleMysql(pool);
    const table = (id: my.MySqlColumnBuilderBase) =>
      my.mysqlTable('bench_rows', {
        id,
        name: my.varchar({ length: 40 }).notNull(),
        qty: my.int().notNull(),
      });
    const make = (name: string, t: ReturnType<typeof table>): Variant => ({
      name,
      insert: async (rows) =>
        (await d.insert(t).values(rows).$returningId()).map((r) => (r as { id: unknown }).id),
    });
    return {
      variants: [
        make('snowflakeId (@snowkey/drizzle)', table(myc.snowflakeId(generator).primaryKey())),
        make('bare custom column + $defaultFn', table(bare.mysql().primaryKey().$defaultFn(next))),
        make(
          "Drizzle's bigint mode + $defaultFn",
          table(my.bigint({ mode: 'bigint' }).primaryKey().$defaultFn(next)),
        ),
      ],
      close: () => pool.end(),
    };
  }
  const sqlite = new Database(db.filename!);
  exactSqliteIntegers(sqlite);
  const d = drizzleSqlite(sqlite);
  const table = (id: lite.SQLiteColumnBuilderBase) =>
    lite.sqliteTable('bench_rows', { id, name: lite.text().notNull(), qty: lite.integer().notNull() });
  const make = (name: string, t: ReturnType<typeof table>): Variant => ({
    name,
    insert: async (rows) =>
      d
        .insert(t)
        .values(rows)
        .returning({ id: t.id })
        .all()
        .map((r) => r.id),
  });
  return {
    variants: [
      make('snowflakeId (@snowkey/drizzle)', table(litec.snowflakeId(generator).primaryKey())),
      make('bare custom column + $defaultFn', table(bare.sqlite().primaryKey().$defaultFn(next))),
    ],
    close: async () => {
      sqlite.close();
    },
  };
}

/** Time spent and rows inserted per variant, summed over interleaved slices of the work. */
class Tally {
  readonly #ms = new Map<string, number>();
  readonly #rows = new Map<string, number>();
  async time(v: Variant, rows: number, work: () => Promise<void>): Promise<void> {
    const start = performance.now();
    await work();
    this.#ms.set(v.name, (this.#ms.get(v.name) ?? 0) + performance.now() - start);
    this.#rows.set(v.name, (this.#rows.get(v.name) ?? 0) + rows);
  }
  rate(v: Variant): number {
    return (this.#rows.get(v.name)! * 1000) / this.#ms.get(v.name)!;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const SLICES = 10;

for (const dialect of selectedDialects()) {
  const db = await createTestDatabase(dialect, 'bench_drizzle');
  try {
    await db.query(
      'CREATE TABLE bench_rows (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, qty INT NOT NULL)',
    );
    const { variants: all, close } = variants(db, new Snowflake({ workerId: 1 }));
    // Per round, the variants take turns slice by slice (100 one-row inserts, or one 1000-row
    // insert), so a burst of load from other processes falls on all of them alike.
    const rounds: { single: Tally; bulk: Tally }[] = [];
    try {
      // Round 0 warms every variant up (JIT, prepared statements, pool) and is not reported.
      for (let round = 0; round <= ROUNDS; round++) {
        const single = new Tally();
        const bulk = new Tally();
        await db.query('DELETE FROM bench_rows');
        for (let slice = 0; slice < SLICES; slice++) {
          const order = (round + slice) % 2 === 0 ? all : [...all].reverse();
          for (const v of order) {
            const n = SINGLE / SLICES;
            await single.time(v, n, async () => {
              for (let i = 0; i < n; i++) await v.insert([{ name: `s${v.name}${slice}-${i}`, qty: i }]);
            });
          }
          for (const v of order) {
            await bulk.time(v, BULK_ROWS, async () => {
              await v.insert(
                Array.from({ length: BULK_ROWS }, (_, i) => ({ name: `b${v.name}${slice}-${i}`, qty: i })),
              );
            });
          }
        }
        if (round > 0) rounds.push({ single, bulk });
      }
    } finally {
      await close();
    }
    const base = all.find((v) => v.name.startsWith('bare'))!;
    const ratios = (kind: 'single' | 'bulk', v: Variant) =>
      rounds.map((r) => r[kind].rate(v) / r[kind].rate(base));
    const cell = (kind: 'single' | 'bulk', v: Variant) => {
      const r = ratios(kind, v);
      return `${fmt(median(rounds.map((x) => x[kind].rate(v))))} | ${median(r).toFixed(2)}x (${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)})`;
    };
    console.log(
      `\n${dialect}: ${SINGLE} one-row inserts and ${BULK_STATEMENTS} inserts of ${BULK_ROWS} rows per variant and round, each returning its ids; ${ROUNDS} rounds, medians (range of the ratio)\n`,
    );
    console.log('| key column | one-row inserts/s | vs bare | rows/s in 1000-row inserts | vs bare |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const v of all) console.log(`| ${v.name} | ${cell('single', v)} | ${cell('bulk', v)} |`);
  } finally {
    await db.drop();
  }
}
