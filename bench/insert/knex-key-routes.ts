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
//   node --conditions=dev-source --import tsx bench/insert/knex-key-routes.ts [rounds]
import { Snowflake } from '@snowkey/core';
import knexFactory, { type Knex } from 'knex';
import { markdownTable } from 'markdown-table';
import { DATABASE_NAME, openBenchDatabase } from './bench-database.js';
import { positiveCount } from './cli-options.js';
import { createTableSql } from './key-kinds.js';
import { benchRows } from './payload.js';
import { median, quantile } from './stats.js';

const rounds = positiveCount('rounds')(process.argv[2] ?? '15');
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
  readonly keyed: boolean;
  readonly dialects: readonly ('postgres' | 'mysql')[];
  /** The INSERT of `rows` (built with `key` for each id when keyed). */
  insert(knex: Knex, rows: object[]): Promise<unknown>;
  key?: (id: bigint) => unknown;
}

const ROUTES: readonly Route[] = [
  {
    name: 'autoincrement',
    table: 'r_auto',
    keyed: false,
    dialects: ['postgres', 'mysql'],
    insert: (knex, rows) => knex('r_auto').insert(rows),
  },
  {
    name: "autoincrement, .returning('id')",
    table: 'r_auto_returning',
    keyed: false,
    dialects: ['postgres'],
    insert: (knex, rows) => knex('r_auto_returning').insert(rows).returning('id'),
  },
  {
    name: "a caller's key, bound",
    table: 'r_bound',
    keyed: true,
    dialects: ['postgres', 'mysql'],
    insert: (knex, rows) => knex('r_bound').insert(rows),
    key: (id) => id,
  },
  {
    name: "a caller's key, inlined into the SQL",
    table: 'r_inline',
    keyed: true,
    dialects: ['postgres', 'mysql'],
    insert: (knex, rows) => knex('r_inline').insert(rows),
    key: (id) => new InlineKey(id),
  },
];

async function measure(dialect: 'postgres' | 'mysql'): Promise<string[][]> {
  const routes = ROUTES.filter((r) => r.dialects.includes(dialect));
  const db = await openBenchDatabase(dialect);
  const knex = knexFactory({
    client: dialect === 'postgres' ? 'pg' : 'mysql2',
    connection: db.database.url,
    pool: { min: 1, max: 1 },
  });
  try {
    for (const route of routes) {
      const kind = route.keyed ? 'snowkey' : 'autoincrement';
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
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    return routes.map((route) => {
      const own = times.get(route.name)!;
      const ratios = own.map((t, i) => t / base[i]! - 1);
      return [
        DATABASE_NAME[dialect],
        route.name,
        median(own).toFixed(1),
        route.name === 'autoincrement' ? '' : pct(median(ratios)),
        route.name === 'autoincrement'
          ? ''
          : `${pct(quantile(ratios, 0.25))} .. ${pct(quantile(ratios, 0.75))}`,
      ];
    });
  } finally {
    await knex.destroy();
    await db.close();
  }
}

const table = [
  [
    'database',
    `${statements} x ${rowsPerStatement}-row INSERT through Knex`,
    'ms',
    'vs autoincrement',
    'middle half of rounds',
  ],
];
for (const dialect of ['postgres', 'mysql'] as const) table.push(...(await measure(dialect)));
console.log(`Median of ${rounds} rounds\n`);
console.log(markdownTable(table, { align: ['l', 'l', 'r', 'r', 'r'] }));
