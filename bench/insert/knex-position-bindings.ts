// Where an application-assigned key costs Knex time on PostgreSQL: before each query, Knex's pg
// client rewrites every `?` of the compiled SQL to `$n` with a regular-expression callback
// (`positionBindings`), so each bound value costs a callback and a string piece, and the garbage
// they make. This times that step alone on the SQL Knex compiles for an INSERT of the bench's rows,
// 1000 rows without the key column (autoincrement) and with it (hand-set ids or snowkey, which send
// the same SQL), and 800 rows with it, interleaved round by round; no database is needed.
//   node --conditions=dev-source --import tsx bench/insert/knex-position-bindings.ts [rounds]
import knexFactory from 'knex';
import { markdownTable } from 'markdown-table';
import { callerColumns } from './adapters/adapter-bench.js';
import { positiveCount } from './cli-options.js';
import { benchRows } from './payload.js';
import { median } from './stats.js';

const rounds = positiveCount('rounds')(process.argv[2] ?? '15');
const knex = knexFactory({ client: 'pg' });
const ids = {
  nextIds: (n: number) => Array.from({ length: n }, (_, i) => 7_000_000_000_000_000_000n + BigInt(i)),
};
const sqlOf = (variant: 'autoincrement' | 'hand-set', rows: number) => ({
  rows,
  sql: knex('bench')
    .insert(callerColumns(benchRows(rows, 0), variant, ids))
    .toSQL().sql,
});
const variants = {
  '1000 rows, autoincrement': sqlOf('autoincrement', 1000),
  '1000 rows with a key column': sqlOf('hand-set', 1000),
  '800 rows with a key column': sqlOf('hand-set', 800),
};
const client = knex.client as { positionBindings(sql: string): string };

const perCall: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((n) => [n, []]));
for (let round = -3; round < rounds; round++) {
  for (const [name, { sql }] of Object.entries(variants)) {
    const calls = 200;
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) client.positionBindings(sql);
    const used = process.cpuUsage(start);
    if (round >= 0) perCall[name]!.push((used.user + used.system) / calls);
  }
}
const placeholders = (sql: string) => sql.split('?').length - 1;
const perRow = (name: string) => median(perCall[name]!) / variants[name as keyof typeof variants].rows;
const base = perRow('1000 rows, autoincrement');
console.log(
  markdownTable(
    [
      ['SQL', 'placeholders', 'µs per statement', 'ns per row', 'per row vs autoincrement'],
      ...Object.entries(variants).map(([name, { sql }]) => [
        name,
        String(placeholders(sql)),
        median(perCall[name]!).toFixed(0),
        (perRow(name) * 1000).toFixed(0),
        `${(perRow(name) / base).toFixed(2)}x`,
      ]),
    ],
    { align: ['l', 'r', 'r', 'r', 'r'] },
  ),
);
await knex.destroy();
