// `pnpm bench:insert [--help]`: raw-driver loads per key kind, then each adapter against hand-set ids and autoincrement.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@snowkey/test-harness';
import { Command, Option } from 'commander';
import { DATABASE_NAME, type Dialect } from '../fresh-database.js';
import { table } from '../measure.js';
import { adapterOverhead, type PathResult } from './adapter-overhead.js';
import { ADAPTER_NAMES } from './adapters/adapter-bench.js';
import { DIALECTS, serverSettings } from './bench-database.js';
import { curvesChart, overheadChart, renderSvg } from './charts.js';
import { count, listOf, progress } from './cli-options.js';
import { type DialectLoads, rawLoads } from './raw-load.js';

type Counts = Record<'rows' | 'rounds' | 'adapterRows' | 'singleRows' | 'adapterRounds', number>;
const opts = new Command('bench:insert')
  .description('insert through raw drivers and each ORM adapter, keyed by autoincrement, snowkey and UUIDs')
  .option('--rows <n>', 'rows per raw load (1000-row INSERTs), per key kind', count, 1_000_000)
  .option('--rounds <n>', 'raw loads per key kind, interleaved; the tables show medians', count, 3)
  .option('--adapter-rows <n>', 'rows per measured write of a bulk path', count, 20_000)
  .option('--single-rows <n>', 'rows per measured write of a one-row path', count, 1000)
  .option('--adapter-rounds <n>', 'measured rounds per write path, after a warm-up', count, 5)
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(DIALECTS), [...DIALECTS])
  .addOption(new Option('--only <phase>', 'run one phase only').choices(['raw', 'adapters']))
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), ADAPTER_NAMES)
  .option('--out <dir>', 'where the charts, report.md and results.json go', 'bench/insert/results')
  .parse()
  .opts<Counts & { dialects: Dialect[]; adapters: string[]; only?: 'raw' | 'adapters'; out: string }>();

const settings: string[] = [];
const loads: DialectLoads[] = [];
const overhead: PathResult[] = [];
for (const dialect of opts.dialects) {
  const db = await createTestDatabase(dialect, 'bench_insert');
  try {
    settings.push(await serverSettings(db));
    if (opts.only !== 'adapters') loads.push(await rawLoads(db, opts.rows, opts.rounds));
    if (opts.only !== 'raw') {
      const options = { bulkRows: opts.adapterRows, singleRows: opts.singleRows, rounds: opts.adapterRounds };
      overhead.push(...(await adapterOverhead(db, opts.adapters, options)));
    }
  } finally {
    await db.drop();
  }
}

const k = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : `${Math.round(n)}`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;
const n = (count: number) => count.toLocaleString('en-US');

const command = `pnpm bench:insert ${process.argv.slice(2).join(' ')}`.trim();
const sections = [
  `Command: \`${command}\``,
  `Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'CPU'}`,
  settings.map((s) => `- ${s}`).join('\n'),
];
if (loads.length) {
  // rows/s, the ratio to autoincrement, sizes, and how the rate holds up
  const rows = loads.flatMap(({ dialect, kinds }) =>
    kinds.map((s) => [
      DATABASE_NAME[dialect],
      s.kind,
      k(s.total),
      x(s.vsAutoincrement),
      mb(s.bytes.data),
      mb(s.bytes.index),
      x((s.bytes.data + s.bytes.index) / (kinds[0]!.bytes.data + kinds[0]!.bytes.index)),
      x(s.slices.at(-1)! / s.slices[0]!),
    ]),
  );
  const head = ['database', 'key', 'rows/s', 'vs autoincrement', 'table', 'other indexes'];
  sections.push(
    `### Raw drivers, ${n(opts.rows)} rows per key kind, 1000-row INSERTs, median of ${opts.rounds} interleaved loads`,
    table([...head, 'size vs autoincrement', 'last / first'], rows, 'llrrrrrr'),
  );
}
if (overhead.length) {
  const rows = overhead.map((r) => [
    DATABASE_NAME[r.dialect],
    r.adapter,
    r.path,
    k(r.rowsPerSecond.autoincrement),
    k(r.rowsPerSecond['hand-set']),
    k(r.rowsPerSecond.snowkey),
    pct(r.vsHandSet),
    r.otherSql ? 'other SQL' : pct(r.addedCpu),
    pct(r.vsAutoincrement),
  ]);
  const head = ['database', 'ORM', 'write path', 'autoincrement rows/s', 'hand-set rows/s', 'snowkey rows/s'];
  const ratios = ['vs hand-set, clock', 'vs hand-set, added CPU', 'vs autoincrement, clock'];
  sections.push(
    `### Through the ORMs: ${n(opts.adapterRows)} rows per bulk run, ${n(opts.singleRows)} per one-row run, median of ${opts.adapterRounds} interleaved rounds`,
    table([...head, ...ratios], rows, 'lllrrrrrr'),
  );
}
const report = `${sections.join('\n\n')}\n`;
process.stdout.write(report);

mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'report.md'), report);
writeFileSync(
  join(opts.out, 'results.json'),
  `${JSON.stringify({ command, settings, loads, overhead }, null, 2)}\n`,
);
if (loads.length)
  writeFileSync(join(opts.out, 'insert-curves.svg'), await renderSvg(curvesChart(loads, opts.rows)));
if (overhead.length)
  writeFileSync(join(opts.out, 'adapter-overhead.svg'), await renderSvg(overheadChart(overhead)));
progress(`wrote ${opts.out}/report.md, results.json and the charts`);
