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
import { freshDatabase } from './fresh-database.js';
import { median, millions, quantileOfSorted, table } from './measure.js';

const RUN_MS = Number(process.env.BENCH_RUN_MS ?? 1000);
const ROUNDS = 3;
const LATENCY_S = Number(process.env.BENCH_LATENCY_S ?? 20);
let sink: unknown;

/** `client` with every statement answered 20 ms late (a distant database), and the refills counted. */
function slowClient(client: SqlClient) {
  const late = () => new Promise((resolve) => setTimeout(resolve, 20));
  const slow = {
    dialect: client.dialect,
    takes: 0,
    async query(sql: string, params?: readonly SqlParam[]) {
      await late();
      return client.query(sql, params);
    },
    async execute(sql: string, params?: readonly SqlParam[]) {
      await late();
      const n = await client.execute(sql, params);
      if (sql.startsWith('UPDATE') && n === 1) slow.takes++;
      return n;
    },
  };
  return slow as SqlClient & typeof slow;
}

/** A call that found the buffers empty: counted as dry, then waits for `ready` (anything else is thrown). */
function dried(err: unknown, ready: (() => Promise<void>) | undefined, dry: { n: number }) {
  if (!(err instanceof SegmentUnavailableError) || !ready) throw err;
  dry.n++;
  return ready();
}

const ns = (n: number) =>
  n < 1000 ? `${Math.round(n)} ns` : n < 1e6 ? `${(n / 1000).toFixed(1)} µs` : `${(n / 1e6).toFixed(1)} ms`;

const file = await freshDatabase('sqlite', `snowkey-segment-bench-${process.pid}`);
const sqlite = new Database(file.name);
sqlite.pragma('journal_mode = WAL');
const client = sqliteSqlClient(sqlite);
const allocators: SegmentAllocator[] = [];
const allocator = async (tag: string, options: object = {}, c: SqlClient = client) => {
  const a = new SegmentAllocator({ client: c, tag, ...options });
  await a.ready();
  allocators.push(a);
  return a;
};

console.log(
  `snowkey segment allocator benchmark: allocation table in a local SQLite file; ${ROUNDS} interleaved runs of ${RUN_MS} ms per row\n`,
);
try {
  // Throughput: runs yield every ~20,000 ids, so a background fetch can land.
  const [single, batched, slow] = [
    await allocator('throughput-nextId'),
    await allocator('throughput-nextIds'),
    await allocator('throughput-slow', {}, slowClient(client)),
  ];
  const [sf, sfBatch] = [new Snowflake({ workerId: 1 }), new Snowflake({ workerId: 2 })];
  const sources = [
    { name: 'Snowflake nextId()', perCall: 1, next: () => sf.nextId() },
    { name: 'Snowflake nextIds(10000)', perCall: 10_000, next: () => sfBatch.nextIds(10_000) },
    {
      name: 'SegmentAllocator nextId()',
      perCall: 1,
      next: () => single.nextId(),
      ready: () => single.ready(),
    },
    {
      name: 'SegmentAllocator nextIds(10000)',
      perCall: 10_000,
      next: () => batched.nextIds(10_000),
      ready: () => batched.ready(10_000),
    },
    {
      name: 'SegmentAllocator nextId(), database +20 ms per statement',
      perCall: 1,
      next: () => slow.nextId(),
      ready: () => slow.ready(),
    },
  ].map((s) => ({ ...s, runs: [] as number[], dry: { n: 0 } }));
  const run = async (s: (typeof sources)[number], ms: number) => {
    const calls = Math.max(1, Math.round(20_000 / s.perCall));
    const start = performance.now();
    let [ids, now] = [0, start];
    while (now < start + ms) {
      for (let i = 0; i < calls; i++) {
        try {
          sink = s.next();
          ids += s.perCall;
        } catch (err) {
          await dried(err, s.ready, s.dry);
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
      now = performance.now();
    }
    return (ids * 1000) / (now - start);
  };
  for (const s of sources) await run(s, 300);
  for (const s of sources) s.dry.n = 0;
  for (let round = 0; round < ROUNDS; round++) for (const s of sources) s.runs.push(await run(s, RUN_MS));
  const base = median(sources[0]!.runs);
  console.log(
    table(
      ['source', 'ids/s (median)', 'runs', 'vs Snowflake nextId()', 'calls that found the buffers empty'],
      sources.map((s) => [
        s.name,
        millions(median(s.runs)),
        s.runs.map(millions).join(' / '),
        `${(median(s.runs) / base).toFixed(2)}x`,
        s.ready ? String(s.dry.n) : '—',
      ]),
    ),
  );
  console.log(
    '\nSnowflake nextId() waits for the next millisecond after 4096 ids (4.096M/s per node); a segment allocator has no such cap.\n',
  );

  // Latency: ~10,000 single timed calls a second per row, the rows side by side.
  console.log(
    `latency of single nextId() calls for ${LATENCY_S} s, ~10 000 ids/s per row, rows side by side:`,
  );
  const step = { step: 1000, maxStep: 1000 };
  const [slowDouble, slowSingle] = [slowClient(client), slowClient(client)];
  const double = await allocator('latency-double', step, slowDouble);
  const fetchWhenEmpty = await allocator('latency-single', { ...step, prefetchAt: 0.999 }, slowSingle);
  const takesBefore = [slowDouble.takes, slowSingle.takes];
  const snowflake = new Snowflake({ workerId: 1 });
  const until = performance.now() + LATENCY_S * 1000;
  const traffic = async (next: () => bigint, ready?: () => Promise<void>) => {
    const samples: number[] = [];
    const dry = { n: 0 };
    while (performance.now() < until) {
      for (let i = 0; i < 100; i++) {
        const t0 = hrtime.bigint();
        for (;;) {
          try {
            sink = next();
            break;
          } catch (err) {
            await dried(err, ready, dry);
          }
        }
        samples.push(Number(hrtime.bigint() - t0));
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { samples: Float64Array.from(samples).sort(), dry: dry.n };
  };
  const [s, d, f] = await Promise.all([
    traffic(() => snowflake.nextId()),
    traffic(
      () => double.nextId(),
      () => double.ready(),
    ),
    traffic(
      () => fetchWhenEmpty.nextId(),
      () => fetchWhenEmpty.ready(),
    ),
  ]);
  const rows = [
    { name: 'Snowflake nextId()', ...s },
    {
      name: 'SegmentAllocator nextId(), double buffer (prefetchAt 0.1)',
      ...d,
      refills: slowDouble.takes - takesBefore[0]!,
    },
    {
      name: 'SegmentAllocator nextId(), fetch when used up (prefetchAt 0.999)',
      ...f,
      refills: slowSingle.takes - takesBefore[1]!,
    },
  ];
  const p = (r: { samples: Float64Array }, q: number) => quantileOfSorted(r.samples, q);
  console.log(
    table(
      ['row', 'calls', 'refills', 'calls that waited', 'p50', 'p99', 'p999', 'max', 'p999 vs Snowflake'],
      rows.map((r) => [
        r.name,
        String(r.samples.length),
        'refills' in r ? String(r.refills) : '—',
        'refills' in r ? String(r.dry) : '—',
        ns(p(r, 0.5)),
        ns(p(r, 0.99)),
        ns(p(r, 0.999)),
        ns(p(r, 1)),
        `${(p(r, 0.999) / p(rows[0]!, 0.999)).toFixed(2)}x`,
      ]),
    ),
  );
  void sink;
} finally {
  await Promise.all(allocators.map((a) => a.close()));
  sqlite.close();
  await file.drop();
}
