// Where an application-assigned key's cost goes in a Knex insert, on PostgreSQL and MariaDB: the
// bench's 1000-row INSERT with an autoincrement key (four values a row) and with a caller's key
// (five; hand-set ids and snowkey send the same statement), split into what Knex spends compiling it
// (`toSQL().toNative()`), what the driver spends on the client sending it (CPU time of this process
// while the query runs: serialising the values, and on MariaDB formatting them into the SQL), and
// the rest of the query's wall time (the wire and the server). The compiled statement runs on a
// connection of the driver's own, as Knex runs it. The ids are taken before the clock starts, so the
// generator is not in it. 20 statements a variant a round, the variants interleaved, median of the
// rounds; each table is checked for every row at the end. Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/knex-key-cost.ts [rounds]
import { Snowflake } from '@snowkey/core';
import { withBigintReads } from '@snowkey/knex';
import { createTestDatabase } from '@snowkey/test-harness';
import knexFactory from 'knex';
import { markdownTable } from 'markdown-table';
import mysql from 'mysql2';
import pg from 'pg';
import { callerColumns } from './adapters/adapter-bench.js';
import { DATABASE_NAME } from './bench-database.js';
import { createTableSql } from './key-kinds.js';
import { benchRows } from './payload.js';
import { median } from './stats.js';

const rounds = Number(process.argv[2] ?? 15);
const statements = 20;
const rowsPerStatement = 1000;
const variants = { autoincrement: 'k_auto', 'hand-set': 'k_key' } as const;
type Variant = keyof typeof variants;
const names = Object.keys(variants) as Variant[];

/** Milliseconds a round spent in each part, for one variant. */
interface Parts {
  compile: number[];
  driver: number[];
  rest: number[];
}

/** Runs a compiled statement on the driver's own connection, as Knex's client for that driver does. */
type Run = (sql: string, bindings: unknown[]) => Promise<void>;

async function measure(dialect: 'postgres' | 'mysql'): Promise<string[][]> {
  const database = await createTestDatabase(dialect, 'bench_knex_key');
  const client = dialect === 'postgres' ? 'pg' : 'mysql2';
  const knex = knexFactory(withBigintReads({ client, connection: database.url, pool: { min: 0, max: 1 } }));
  let close: () => Promise<void> = async () => {};
  try {
    for (const [variant, table] of Object.entries(variants)) {
      const kind = variant === 'autoincrement' ? 'autoincrement' : 'snowkey';
      for (const sql of createTableSql(dialect, kind, table)) await knex.raw(sql);
    }
    let run: Run;
    if (dialect === 'postgres') {
      const conn = new pg.Client({ connectionString: database.url });
      await conn.connect();
      close = () => conn.end();
      run = async (text, values) => {
        await conn.query({ text, values });
      };
    } else {
      const conn = mysql.createConnection({
        uri: database.url,
        supportBigNumbers: true,
        bigNumberStrings: true,
      });
      close = () => conn.promise().end();
      run = (sql, values) =>
        new Promise((resolve, reject) =>
          conn.query(sql, values as mysql.QueryValues, (err) => (err ? reject(err) : resolve())),
        );
    }
    const generator = new Snowflake({ workerId: 5 });
    const parts: Record<Variant, Parts> = {
      autoincrement: { compile: [], driver: [], rest: [] },
      'hand-set': { compile: [], driver: [], rest: [] },
    };
    let offset = 0;
    for (let round = -2; round < rounds; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const variant of order) {
        let compile = 0;
        let driver = 0;
        let wall = 0;
        for (let s = 0; s < statements; s++) {
          const rows = callerColumns(benchRows(rowsPerStatement, offset), variant, generator);
          offset += rowsPerStatement;
          const t0 = performance.now();
          const { sql, bindings } = knex(variants[variant]).insert(rows).toSQL().toNative();
          const t1 = performance.now();
          const cpu = process.cpuUsage();
          await run(sql, bindings as unknown[]);
          const t2 = performance.now();
          const used = process.cpuUsage(cpu);
          compile += t1 - t0;
          driver += (used.user + used.system) / 1000;
          wall += t2 - t1;
        }
        if (round >= 0) {
          parts[variant].compile.push(compile);
          parts[variant].driver.push(driver);
          parts[variant].rest.push(Math.max(0, wall - driver));
        }
      }
    }
    for (const table of Object.values(variants)) {
      const [row] = await database.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table}`);
      const expected = (rounds + 2) * statements * rowsPerStatement;
      if (Number(row!.n) !== expected)
        throw new Error(`${table} holds ${String(row!.n)} rows, not ${expected}`);
    }
    const med = (variant: Variant) => {
      const p = parts[variant];
      const m = { compile: median(p.compile), driver: median(p.driver), rest: median(p.rest) };
      return { ...m, total: m.compile + m.driver + m.rest };
    };
    const auto = med('autoincrement');
    const key = med('hand-set');
    const ms = (x: number) => x.toFixed(1);
    const share = (x: number) => `${x >= 0 ? '+' : ''}${((x / auto.total) * 100).toFixed(1)}%`;
    return [
      [
        DATABASE_NAME[dialect],
        'autoincrement',
        ms(auto.compile),
        ms(auto.driver),
        ms(auto.rest),
        ms(auto.total),
      ],
      [
        DATABASE_NAME[dialect],
        "a caller's key",
        ms(key.compile),
        ms(key.driver),
        ms(key.rest),
        ms(key.total),
      ],
      [
        DATABASE_NAME[dialect],
        'difference, of autoincrement total',
        share(key.compile - auto.compile),
        share(key.driver - auto.driver),
        share(key.rest - auto.rest),
        share(key.total - auto.total),
      ],
    ];
  } finally {
    await close();
    await knex.destroy();
    await database.drop();
  }
}

const table = [
  [
    'database',
    `${statements} x ${rowsPerStatement}-row INSERT`,
    'Knex compiles, ms',
    'driver on the client, ms',
    'wire and server, ms',
    'total, ms',
  ],
];
for (const dialect of ['postgres', 'mysql'] as const) table.push(...(await measure(dialect)));
console.log(`Median of ${rounds} rounds\n`);
console.log(markdownTable(table, { align: ['l', 'l', 'r', 'r', 'r', 'r'] }));
