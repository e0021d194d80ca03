// Where an application-assigned key's cost goes in a Knex insert, on PostgreSQL and MariaDB: the
// bench's 1000-row INSERT with an autoincrement key (four values a row) and with a caller's key
// (five; hand-set ids and snowkey send the same statement), split into what Knex spends compiling it
// (`toSQL().toNative()`), what the driver spends on the client sending it (CPU time of this process
// while the query runs: serialising the values, and on MariaDB formatting them into the SQL), and
// the rest of the query's wall time (the wire and the server). The compiled statement runs on the
// bench database's own driver connection. The ids are taken before the clock starts, so the
// generator is not in it. 20 statements a variant a round, the variants interleaved, median of the
// rounds; each table is checked for every row at the end. Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/knex-key-cost.ts [rounds]
import { Snowflake } from '@snowkey/core';
import knexFactory from 'knex';
import { markdownTable } from 'markdown-table';
import { callerColumns } from './adapters/adapter-bench.js';
import { DATABASE_NAME, openBenchDatabase } from './bench-database.js';
import { positiveCount } from './cli-options.js';
import { createTableSql } from './key-kinds.js';
import { benchRows } from './payload.js';
import { median } from './stats.js';

const rounds = positiveCount('rounds')(process.argv[2] ?? '15');
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

async function measure(dialect: 'postgres' | 'mysql'): Promise<string[][]> {
  const db = await openBenchDatabase(dialect);
  // Only compiles: Knex needs no connection for `toSQL`.
  const knex = knexFactory({ client: dialect === 'postgres' ? 'pg' : 'mysql2' });
  try {
    for (const variant of names) {
      const kind = variant === 'autoincrement' ? 'autoincrement' : 'snowkey';
      for (const sql of createTableSql(dialect, kind, variants[variant])) await db.exec(sql);
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
          await db.exec(sql, bindings as unknown[]);
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
    const expected = (rounds + 2) * statements * rowsPerStatement;
    for (const table of Object.values(variants)) {
      const stored = await db.countRows(table);
      if (stored !== expected) throw new Error(`${table} holds ${stored} rows, not ${expected}`);
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
    // The table's columns, in order: each row gives one cell for each.
    const columns = ['compile', 'driver', 'rest', 'total'] as const;
    const row = (label: string, cell: (c: (typeof columns)[number]) => string) => [
      DATABASE_NAME[dialect],
      label,
      ...columns.map(cell),
    ];
    return [
      row('autoincrement', (c) => ms(auto[c])),
      row("a caller's key", (c) => ms(key[c])),
      row('difference, of autoincrement total', (c) => share(key[c] - auto[c])),
    ];
  } finally {
    await knex.destroy();
    await db.close();
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
