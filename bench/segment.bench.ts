// `pnpm bench:segment`: SegmentAllocator's throughput against Snowflake, then nextId() latency across
// refills with the database 20 ms away. The allocation table is in a SQLite file of its own.
import { hrtime } from 'node:process';
import {
  SegmentAllocator,
  SegmentUnavailableError,
  Snowflake,
  type SqlClient,
  type SqlParam,
  sqliteSqlClient,
} from '@snowkey/core';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { freshDatabase } from './fresh-database.js';
import { median, millions, quantileOfSorted, table } from './measure.js';

const options = new Command()
  .option('--run-ms <ms>', 'length of a throughput run', '1000')
  .option('--latency-s <s>', 'length of the latency test', '20')
  .parse()
  .opts<Record<'runMs' | 'latencyS', string>>();
let sink: unknown;

const file = await freshDatabase('sqlite', `snowkey-segment-bench-${process.pid}`);
const sqlite = new Database(file.name);
sqlite.pragma('journal_mode = WAL');
const client = sqliteSqlClient(sqlite);
const wait = () => new Promise((resolve) => setTimeout(resolve, 20));
/** `client` with every statement answered 20 ms late: a distant database. */
const distant: SqlClient = {
  dialect: 'sqlite',
  query: <Row>(sql: string, params?: readonly SqlParam[]) =>
    wait().then(() => client.query<Row>(sql, params)),
  execute: (sql, params) => wait().then(() => client.execute(sql, params)),
};

/** Ids from `next`, `perCall` a call; `allocator` when they come from one (its stats count refills and waits). */
type Source = { name: string; next: () => unknown; perCall: number; allocator?: SegmentAllocator };
const allocators: SegmentAllocator[] = [];
async function segment(name: string, c: SqlClient, more: object = {}, perCall = 1): Promise<Source> {
  const a = new SegmentAllocator({ client: c, tag: `t${allocators.length}`, ...more });
  allocators.push(a);
  await a.ready();
  return { name, perCall, allocator: a, next: () => (perCall === 1 ? a.nextId() : a.nextIds(perCall)) };
}
/** Draws from `s`; when its buffers are empty, hands back the wait for them. */
function draw(s: Source): Promise<void> | undefined {
  try {
    sink = s.next();
  } catch (err) {
    if (!(err instanceof SegmentUnavailableError) || !s.allocator) throw err;
    return s.allocator.ready(s.perCall);
  }
}
const stat = (s: Source, key: 'refills' | 'unavailable') => s.allocator?.stats()[key] ?? 0;

console.log(`snowkey segment allocator benchmark: 3 interleaved runs of ${options.runMs} ms per row\n`);
const [sf, sfBatch] = [new Snowflake({ workerId: 1 }), new Snowflake({ workerId: 2 })];
const sources: Source[] = [
  { name: 'Snowflake nextId()', next: () => sf.nextId(), perCall: 1 },
  { name: 'Snowflake nextIds(10000)', next: () => sfBatch.nextIds(10_000), perCall: 10_000 },
  await segment('SegmentAllocator nextId()', client),
  await segment('SegmentAllocator nextIds(10000)', client, {}, 10_000),
  await segment('SegmentAllocator nextId(), database +20 ms per statement', distant),
];
/** Ids/s over `ms`, yielding every ~20,000 ids so that a background fetch can land. */
async function run(s: Source, ms: number) {
  const start = performance.now();
  let [ids, now] = [0, start];
  while (now < start + ms) {
    for (let i = 0; i < 20_000 / s.perCall; i++) {
      const empty = draw(s);
      if (empty) await empty;
      else ids += s.perCall;
    }
    await new Promise((resolve) => setImmediate(resolve));
    now = performance.now();
  }
  return (ids * 1000) / (now - start);
}
for (const s of sources) await run(s, 300);
const emptyBefore = sources.map((s) => stat(s, 'unavailable'));
const runs = sources.map((): number[] => []);
for (let round = 0; round < 3; round++)
  for (const [i, s] of sources.entries()) runs[i]!.push(await run(s, Number(options.runMs)));
const head = 'source|ids/s (median)|runs|vs Snowflake nextId()|calls that found the buffers empty'.split('|');
const rows = sources.map((s, i) => [
  s.name,
  millions(median(runs[i]!)),
  runs[i]!.map(millions).join(' / '),
  `${(median(runs[i]!) / median(runs[0]!)).toFixed(2)}x`,
  s.allocator ? String(stat(s, 'unavailable') - emptyBefore[i]!) : '—',
]);
console.log(`${table(head, rows)}\n`);

console.log(`latency of single nextId() calls for ${options.latencyS} s, ~10,000 a second per row:`);
const step = { step: 1000, maxStep: 1000 };
const latency = [
  sources[0]!,
  await segment('SegmentAllocator nextId(), double buffer (prefetchAt 0.1)', distant, step),
  await segment('SegmentAllocator nextId(), fetch when used up (prefetchAt 0.999)', distant, {
    ...step,
    prefetchAt: 0.999,
  }),
];
const before = latency.map((s) => [stat(s, 'refills'), stat(s, 'unavailable')] as const);
const until = performance.now() + Number(options.latencyS) * 1000;
/** 100 timed single calls every 10 ms until `until`, their times in ns, sorted. */
async function traffic(s: Source) {
  const samples: number[] = [];
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) {
      const t0 = hrtime.bigint();
      for (let empty = draw(s); empty; empty = draw(s)) await empty;
      samples.push(Number(hrtime.bigint() - t0));
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Float64Array.from(samples).sort();
}
const samples = await Promise.all(latency.map(traffic));
const ns = (n: number) =>
  n < 1000 ? `${Math.round(n)} ns` : n < 1e6 ? `${(n / 1000).toFixed(1)} µs` : `${(n / 1e6).toFixed(1)} ms`;
const p = (i: number, q: number) => quantileOfSorted(samples[i]!, q);
const latencyRows = latency.map((s, i) => [
  s.name,
  String(samples[i]!.length),
  ...(s.allocator
    ? [stat(s, 'refills') - before[i]![0], stat(s, 'unavailable') - before[i]![1]]
    : ['—', '—']
  ).map(String),
  ...[0.5, 0.99, 0.999, 1].map((q) => ns(p(i, q))),
  `${(p(i, 0.999) / p(0, 0.999)).toFixed(2)}x`,
]);
const latencyHead = ['row', 'calls', 'refills', 'calls that waited', 'p50', 'p99', 'p999', 'max'];
console.log(table([...latencyHead, 'p999 vs Snowflake'], latencyRows));
void sink;
await Promise.all(allocators.map((a) => a.close()));
sqlite.close();
await file.drop();
