// What Knex's 1000-row insert costs with a key the application chooses, against autoincrement, by
// the routes such a key could take, on PostgreSQL and MariaDB: the key bound as a value (what
// hand-set ids and snowkey's helper send), the key written into the SQL text as a literal through
// an object of Knex's undocumented raw duck type (`isRawInstance`: Knex's own `knex.raw` makes a
// nanoid and an object on every `toSQL`, which costs more than the binding it saves), and, on
// PostgreSQL, autoincrement with `.returning('id')`, the form that gives the application the ids
// the other routes know before the INSERT. No snowkey code is timed: the ids are taken before the
// clock starts; the rows are built inside it, for every route. 20 statements a route a round, the
// routes interleaved in a rotating order, each round's time against autoincrement's in the same
// round, median of the rounds; each table is checked for every row at the end. Not part of the
// benchmark's report.
// With a directory, it writes the table (report.md), the figures (results.json) and a chart of them
// (knex-key-routes.svg) there too.
//   node --conditions=dev-source --import tsx bench/insert/knex-key-routes.ts [rounds] [out-dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Snowflake } from '@snowkey/core';
import knexFactory, { type Knex } from 'knex';
import { markdownTable } from 'markdown-table';
import { DATABASE_NAME, openBenchDatabase } from './bench-database.js';
import { type KeyRouteResult, keyRoutesChart, renderSvg } from './charts.js';
import { positiveCount } from './cli-options.js';
import { createTableSql } from './key-kinds.js';
import { benchRows } from './payload.js';
import { median, quantile } from './stats.js';

const rounds = positiveCount('rounds')(process.argv[2] ?? '15');
const outDir = process.argv[3];
const statements = 20;
const rowsPerStatement = 1000;
const WARMUP_ROUNDS = 3;

/**
 * A key Knex writes into the statement's text instead of binding it: Knex takes any value whose
 * `isRawInstance` is true for one of its Raw objects and writes `toSQL().sql` in its place.
 */
class InlineKey {
  readonly isRawInstance = true;
  readonly sql: string;
  readonly bindings: readonly unknown[] = [];
  constructor(id: bigint) {
    this.sql = id.toString();
  }
  toSQL(): this {
    return this;
  }
}

interface Route {
  readonly name: string;
  readonly table: string;
  readonly dialects: readonly ('postgres' | 'mysql')[];
  /** The INSERT of `rows`. */
  insert(knex: Knex, rows: object[]): Promise<unknown>;
  /** What a row holds for its key (none: autoincrement). */
  key?: (id: bigint) => unknown;
}

const ROUTES: readonly Route[] = [
  {
    name: 'autoincrement',
    table: 'r_auto',
    dialects: ['postgres', 'mysql'],
    insert: (knex, rows) => knex('r_auto').insert(rows),
  },
  {
    name: "autoincrement, .returning('id')",
    table: 'r_auto_returning',
    dialects: ['postgres'],
    insert: (knex, rows) => knex('r_auto_returning').insert(rows).returning('id'),
  },
  {
    name: "a caller's key, bound",
    table: 'r_bound',
    dialects: ['postgres', 'mysql'],
    insert: (knex, rows) => knex('r_bound').insert(rows),
    key: (id) => id,
  },
  {
    name: "a caller's key, inlined into the SQL",
    table: 'r_inline',
    dialects: ['postgres', 'mysql'],
    insert: (knex, rows) => knex('r_inline').insert(rows),
    key: (id) => new InlineKey(id),
  },
];

/** A route's median time for 20 statements, in milliseconds, with its figures against autoincrement. */
interface Measured extends KeyRouteResult {
  readonly ms: number;
}

async function measure(dialect: 'postgres' | 'mysql'): Promise<Measured[]> {
  const routes = ROUTES.filter((r) => r.dialects.includes(dialect));
  const db = await openBenchDatabase(dialect);
  const knex = knexFactory({
    client: dialect === 'postgres' ? 'pg' : 'mysql2',
    connection: db.database.url,
    pool: { min: 1, max: 1 },
  });
  try {
    for (const route of routes) {
      const kind = route.key ? 'snowkey' : 'autoincrement';
      for (const sql of createTableSql(dialect, kind, route.table)) await db.exec(sql);
    }
    const generator = new Snowflake({ workerId: 6, sequenceOverflow: 'borrow' });
    const times = new Map(routes.map((r) => [r.name, [] as number[]]));
    let offset = 0;
    for (let round = -WARMUP_ROUNDS; round < rounds; round++) {
      // Each route goes first in turn, so none always follows the same one.
      const shift = (round + WARMUP_ROUNDS) % routes.length;
      const order = [...routes.slice(shift), ...routes.slice(0, shift)];
      for (const route of order) {
        let elapsed = 0;
        for (let s = 0; s < statements; s++) {
          const payload = benchRows(rowsPerStatement, offset);
          offset += rowsPerStatement;
          const ids = route.key ? generator.nextIds(rowsPerStatement) : undefined;
          const key = route.key;
          const t0 = performance.now();
          // One object literal a row either way, so a keyed row pays for nothing but its key.
          const rows =
            key && ids
              ? payload.map((r, i) => ({
                  id: key(ids[i]!),
                  owner_id: r.ownerId,
                  name: r.name,
                  score: r.score,
                  created_at: r.createdAt,
                }))
              : payload.map((r) => ({
                  owner_id: r.ownerId,
                  name: r.name,
                  score: r.score,
                  created_at: r.createdAt,
                }));
          await route.insert(knex, rows);
          elapsed += performance.now() - t0;
        }
        if (round >= 0) times.get(route.name)!.push(elapsed);
      }
    }
    for (const route of routes) {
      const expected = (rounds + WARMUP_ROUNDS) * statements * rowsPerStatement;
      const stored = await db.countRows(route.table);
      if (stored !== expected) throw new Error(`${route.table} holds ${stored} rows, not ${expected}`);
    }
    const base = times.get('autoincrement')!;
    return routes.map((route) => {
      const own = times.get(route.name)!;
      const ratios = own.map((t, i) => t / base[i]! - 1);
      return {
        dialect,
        route: route.name,
        ms: median(own),
        vsAutoincrement: median(ratios),
        q1: quantile(ratios, 0.25),
        q3: quantile(ratios, 0.75),
      };
    });
  } finally {
    await knex.destroy();
    await db.close();
  }
}

const results: Measured[] = [];
for (const dialect of ['postgres', 'mysql'] as const) results.push(...(await measure(dialect)));
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const table = markdownTable(
  [
    [
      'database',
      `${statements} x ${rowsPerStatement}-row INSERT through Knex`,
      'ms',
      'vs autoincrement',
      'middle half of rounds',
    ],
    ...results.map((r) => {
      const base = r.route === 'autoincrement';
      return [
        DATABASE_NAME[r.dialect],
        r.route,
        r.ms.toFixed(1),
        base ? '' : pct(r.vsAutoincrement),
        base ? '' : `${pct(r.q1)} .. ${pct(r.q3)}`,
      ];
    }),
  ],
  { align: ['l', 'l', 'r', 'r', 'r'] },
);
console.log(`Median of ${rounds} rounds\n`);
console.log(table);
if (outDir !== undefined) {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'report.md'), `Median of ${rounds} rounds\n\n${table}\n`);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify({ rounds, results }, null, 2)}\n`);
  const others = results.filter((r) => r.route !== 'autoincrement');
  writeFileSync(join(outDir, 'knex-key-routes.svg'), await renderSvg(keyRoutesChart(others)));
  process.stderr.write(`wrote ${outDir}/report.md, results.json and knex-key-routes.svg\n`);
}
