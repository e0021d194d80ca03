// `pnpm bench:metrics [--run-ms 500] [--rounds 5] [--out dir]`: nextId() with no metrics, with snowkeyMetrics
// on the OpenTelemetry API alone and with the SDK, interleaved; writes the table and a chart to --out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { SegmentAllocator, type SegmentStore, Snowflake } from '@snowkey/core';
import { snowkeyMetrics } from '@snowkey/core/otel';
import { renderSvg } from './insert/charts.js';
import { fastClock, median, table, timedRun } from './measure.js';

const { values: args } = parseArgs({
  options: {
    'run-ms': { type: 'string', default: process.env.BENCH_RUN_MS ?? '500' },
    rounds: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/metrics-results' },
  },
});
const RUN_MS = Number(args['run-ms']);
const ROUNDS = Number(args.rounds);

/** A store in memory: what is measured is nextId(), not the database. */
function memoryStore(): SegmentStore {
  let counter = 0n;
  return {
    name: 'memory',
    prepare: async () => ({}),
    take: async ({ count }) => {
      const first = counter + 1n;
      counter += BigInt(count);
      return { first, last: counter };
    },
  };
}

const sdk = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 1000,
    }),
  ],
});
const setups: [string, (source: Parameters<typeof snowkeyMetrics>[0]) => void][] = [
  ['no metrics', () => {}],
  ['snowkeyMetrics, API without SDK', (source) => snowkeyMetrics(source)],
  [
    'snowkeyMetrics, SDK collecting every 1 s',
    (source) => snowkeyMetrics(source, { meter: sdk.getMeter('bench') }),
  ],
];
const STEP = 500_000_000; // more than a run takes: the allocator's store is not what is measured
const generators: [string, (n: number) => Snowflake | SegmentAllocator][] = [
  ['Snowflake nextId(), clock x100', (n) => new Snowflake({ workerId: n, clock: fastClock() })],
  ['Snowflake nextId(), real clock (waits)', (n) => new Snowflake({ workerId: 10 + n })],
  [
    'SegmentAllocator nextId()',
    (n) => new SegmentAllocator({ store: memoryStore(), tag: `bench-${n}`, step: STEP, maxStep: STEP }),
  ],
];
const rows = generators.flatMap(([generator, make]) =>
  setups.map(([metrics, attach], i) => {
    const gen = make(i);
    attach(gen);
    // An allocator fills its buffers before each (synchronous) run.
    const prepare = async () => {
      if (gen instanceof SegmentAllocator) await gen.ready(STEP / 2);
    };
    return {
      generator,
      metrics,
      next: () => gen.nextId(),
      prepare,
      rates: [] as number[],
      cpu: [] as number[],
    };
  }),
);

const machine = `node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} x ${cpus().length}`;
console.log(
  `snowkey metrics overhead benchmark, ${machine}: ${ROUNDS} interleaved runs of ${RUN_MS} ms per row\n`,
);

for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    await row.prepare();
    if (round === 0) timedRun(row.next, 1, 200); // warm up the JIT
    await row.prepare();
    const run = timedRun(row.next, 1, RUN_MS);
    row.rates.push(run.idsPerSecond);
    row.cpu.push(run.cpuShare);
    // Let the SDK's collection timer and the allocator's background takes run between rows.
    await new Promise((resolve) => setImmediate(resolve));
  }
  console.log(`round ${round + 1}/${ROUNDS} done`);
}
await sdk.shutdown();

// CPU time per id: other processes' load on the shared machine does not inflate it.
type Row = (typeof rows)[number];
const cpuNs = (r: Row) => median(r.rates.map((rate, i) => (1e9 / rate) * r.cpu[i]!));
const fmt = (x: number) => x.toFixed(1);
const head = [
  'nextId() of',
  'metrics',
  'CPU ns/op (median)',
  'runs (CPU ns/op)',
  'vs no metrics',
  'wall ns/op',
];
const report = table(
  [...head, 'share of a CPU'],
  rows.map((r) => [
    r.generator,
    r.metrics,
    fmt(cpuNs(r)),
    r.rates.map((rate, i) => fmt((1e9 / rate) * r.cpu[i]!)).join(' / '),
    `${(cpuNs(r) / cpuNs(rows.find((b) => b.generator === r.generator)!)).toFixed(2)}x`,
    fmt(1e9 / median(r.rates)),
    `${Math.round(100 * median(r.cpu))}%`,
  ]),
  'llrrrrr',
);
console.log(`\n${report}\n`);

mkdirSync(args.out, { recursive: true });
writeFileSync(
  join(args.out, 'report.md'),
  `# nextId() with and without metrics\n\n\`pnpm bench:metrics --rounds ${ROUNDS} --run-ms ${RUN_MS}\`, ${new Date().toISOString().slice(0, 10)}, ${machine}; ${ROUNDS} interleaved runs of ${RUN_MS} ms per row.\n\n${report}\n`,
);
const svg = await renderSvg({
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: 'nextId() CPU ns per id with and without metrics (median; lower is better)',
  data: {
    values: rows.map((r) => ({ generator: r.generator, metrics: r.metrics, ns: Number(fmt(cpuNs(r))) })),
  },
  mark: 'bar',
  encoding: {
    row: {
      field: 'generator',
      type: 'nominal',
      title: null,
      sort: null,
      header: { labelAngle: 0, labelAlign: 'left' },
    },
    y: { field: 'metrics', type: 'nominal', title: null, sort: null, axis: { labelLimit: 0 } },
    x: { field: 'ns', type: 'quantitative', title: 'CPU ns per nextId()' },
    color: { field: 'metrics', type: 'nominal', legend: null, sort: null },
  },
});
writeFileSync(join(args.out, 'metrics-overhead.svg'), svg);
console.log(`wrote ${join(args.out, 'report.md')} and metrics-overhead.svg`);
process.exit(0);
