// `pnpm bench:metrics [--run-ms 500] [--rounds 5] [--out dir]`: nextId() with no metrics, with snowkeyMetrics
// on the OpenTelemetry API alone and with the SDK, interleaved; writes the table and a chart to --out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Meter } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { SegmentAllocator, type SegmentStore, Snowflake } from '@snowkey/core';
import { snowkeyMetrics } from '@snowkey/core/otel';
import { markdownTable } from 'markdown-table';
import { renderSvg } from './insert/charts.js';
import { consumed, fastClock, median, timedRun } from './measure.js';

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
const setups: { name: string; meter: Meter | undefined | 'api' }[] = [
  { name: 'no metrics', meter: undefined },
  { name: 'snowkeyMetrics, API without SDK', meter: 'api' },
  { name: 'snowkeyMetrics, SDK collecting every 1 s', meter: sdk.getMeter('bench') },
];
const report = (source: Parameters<typeof snowkeyMetrics>[0], meter: Meter | undefined | 'api') => {
  if (meter === 'api') snowkeyMetrics(source);
  else if (meter) snowkeyMetrics(source, { meter });
};

interface Row {
  readonly generator: string;
  readonly metrics: string;
  readonly next: () => unknown;
  readonly rates: number[];
  readonly cpu: number[];
  readonly prepare?: () => Promise<void>; // an allocator fills its buffers before a (synchronous) run
}
const STEP = 500_000_000; // more than a run takes: the allocator's store is not what is measured
const generators: {
  name: string;
  make: (n: number) => Snowflake | SegmentAllocator;
}[] = [
  { name: 'Snowflake nextId(), clock x100', make: (n) => new Snowflake({ workerId: n, clock: fastClock() }) },
  { name: 'Snowflake nextId(), real clock (waits)', make: (n) => new Snowflake({ workerId: 10 + n }) },
  {
    name: 'SegmentAllocator nextId()',
    make: (n) => new SegmentAllocator({ store: memoryStore(), tag: `bench-${n}`, step: STEP, maxStep: STEP }),
  },
];
const rows: Row[] = [];
for (const { name: generator, make } of generators) {
  for (const { name, meter } of setups) {
    const gen = make(rows.length);
    report(gen, meter);
    const prepare = gen instanceof SegmentAllocator ? () => gen.ready(STEP / 2) : undefined;
    rows.push({ generator, metrics: name, next: () => gen.nextId(), rates: [], cpu: [], prepare });
  }
}

const machine = `node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} x ${cpus().length}`;
console.log(
  `snowkey metrics overhead benchmark, ${machine}: ${ROUNDS} interleaved runs of ${RUN_MS} ms per row\n`,
);

for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    await row.prepare?.();
    if (round === 0) timedRun(row.next, 1, 200); // warm up the JIT
    await row.prepare?.();
    const run = timedRun(row.next, 1, RUN_MS);
    row.rates.push(run.idsPerSecond);
    row.cpu.push(run.cpuShare);
    // Let the SDK's collection timer and the allocator's background takes run between rows.
    await new Promise((resolve) => setImmediate(resolve));
  }
  console.log(`round ${round + 1}/${ROUNDS} done`);
}
void consumed();
await sdk.shutdown();

// CPU time per id: other processes' load on the shared machine does not inflate it.
const cpuNs = (r: Row) => median(r.rates.map((rate, i) => (1e9 / rate) * r.cpu[i]!));
const wallNs = (r: Row) => 1e9 / median(r.rates);
const fmt = (x: number) => x.toFixed(1);
const table = markdownTable(
  [
    [
      'nextId() of',
      'metrics',
      'CPU ns/op (median)',
      'runs (CPU ns/op)',
      'vs no metrics',
      'wall ns/op',
      'share of a CPU',
    ],
    ...rows.map((r) => {
      const base = rows.find((b) => b.generator === r.generator && b.metrics === 'no metrics')!;
      return [
        r.generator,
        r.metrics,
        fmt(cpuNs(r)),
        r.rates.map((rate, i) => fmt((1e9 / rate) * r.cpu[i]!)).join(' / '),
        `${(cpuNs(r) / cpuNs(base)).toFixed(2)}x`,
        fmt(wallNs(r)),
        `${Math.round(100 * median(r.cpu))}%`,
      ];
    }),
  ],
  { align: ['l', 'l', 'r', 'r', 'r', 'r', 'r'] },
);
console.log(`\n${table}\n`);

mkdirSync(args.out, { recursive: true });
writeFileSync(
  join(args.out, 'report.md'),
  `# nextId() with and without metrics\n\n\`pnpm bench:metrics\`, ${new Date().toISOString().slice(0, 10)}, ${machine}; ${ROUNDS} interleaved runs of ${RUN_MS} ms per row.\n\n${table}\n`,
);
const svg = await renderSvg({
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: 'nextId() CPU ns per id with and without metrics (median; lower is better)',
  data: {
    values: rows.map((r) => ({
      generator: r.generator,
      metrics: r.metrics,
      ns: Number(fmt(cpuNs(r))),
    })),
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
