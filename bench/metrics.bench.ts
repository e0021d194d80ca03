// `pnpm bench:metrics [--rounds 7] [--run-ms 1000]`: nextId() with no metrics, with snowkeyMetrics on the
// OpenTelemetry API alone and with the SDK, interleaved; writes the table and a chart to bench/metrics-results.
import { writeFileSync } from 'node:fs';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { SegmentAllocator, Snowflake, sqliteSqlClient } from '@snowkey/core';
import { snowkeyMetrics } from '@snowkey/core/otel';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { renderSvg } from './insert/charts.js';
import { fastClock, interleavedRuns, median, table } from './measure.js';

const options = new Command()
  .option('--rounds <n>', 'interleaved runs per row', '7')
  .option('--run-ms <ms>', 'length of a run', '1000')
  .parse()
  .opts<Record<'rounds' | 'runMs', string>>();
const OUT = new URL('metrics-results/', import.meta.url);

const sdk = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 1000,
    }),
  ],
});
const METRICS: [string, ((source: Snowflake | SegmentAllocator) => void)?][] = [
  ['no metrics'],
  ['snowkeyMetrics, API without SDK', (source) => snowkeyMetrics(source)],
  [
    'snowkeyMetrics, SDK collecting every 1 s',
    (source) => snowkeyMetrics(source, { meter: sdk.getMeter('b') }),
  ],
];
const STEP = 500_000_000; // more ids than a run takes: the store is not what is measured
const store = sqliteSqlClient(new Database(':memory:'));
const GENERATORS: [string, (n: number) => Snowflake | SegmentAllocator][] = [
  ['Snowflake nextId(), clock x100', (n) => new Snowflake({ workerId: n, clock: fastClock() })],
  ['Snowflake nextId(), real clock (waits)', (n) => new Snowflake({ workerId: 10 + n })],
  [
    'SegmentAllocator nextId()',
    (n) => new SegmentAllocator({ client: store, tag: `b${n}`, step: STEP, maxStep: STEP }),
  ],
];
const rows = GENERATORS.flatMap(([generator, make]) =>
  METRICS.map(([metrics, attach], i) => {
    const gen = make(i);
    attach?.(gen);
    // An allocator's buffers are filled before each (synchronous) run.
    const before = async () => gen instanceof SegmentAllocator && (await gen.ready(STEP / 2));
    return { generator, metrics, next: () => gen.nextId(), before };
  }),
);

console.log(`snowkey metrics benchmark: ${options.rounds} interleaved runs of ${options.runMs} ms per row\n`);
const runs = await interleavedRuns(rows, Number(options.rounds), Number(options.runMs));
await sdk.shutdown();
// CPU time per id: the shared machine's other load does not inflate it.
const cpuNs = runs.map((r) => r.map((run) => (1e9 * run.cpuShare) / run.idsPerSecond));
const ns = (i: number) => median(cpuNs[i]!);
const head =
  'nextId() of|metrics|CPU ns/op (median)|runs (CPU ns/op)|vs no metrics|wall ns/op|share of a CPU';
const body = rows.map((r, i) => [
  r.generator,
  r.metrics,
  ns(i).toFixed(1),
  cpuNs[i]!.map((x) => x.toFixed(1)).join(' / '),
  `${(ns(i) / ns(i - (i % METRICS.length))).toFixed(2)}x`,
  (1e9 / median(runs[i]!.map((run) => run.idsPerSecond))).toFixed(1),
  `${Math.round(100 * median(runs[i]!.map((run) => run.cpuShare)))}%`,
]);
const report = table(head.split('|'), body, 'llrrrrr');
console.log(`\n${report}\n`);

const command = `pnpm bench:metrics --rounds ${options.rounds} --run-ms ${options.runMs}`;
const markdown = `# nextId() with and without metrics\n\n\`${command}\`\n\n${report}\n`;
writeFileSync(new URL('report.md', OUT), markdown);
const svg = await renderSvg({
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: 'nextId() CPU ns per id with and without metrics (median; lower is better)',
  data: { values: rows.map((r, i) => ({ generator: r.generator, metrics: r.metrics, ns: ns(i) })) },
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
writeFileSync(new URL('metrics-overhead.svg', OUT), svg);
console.log('wrote bench/metrics-results/report.md and metrics-overhead.svg');
process.exit(0);
