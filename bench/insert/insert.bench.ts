// `pnpm bench:insert [--help]`: raw-driver loads per key kind, then each adapter against hand-set ids and autoincrement.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { adapterOverhead, type PathResult } from './adapter-overhead.js';
import { ADAPTER_NAMES } from './adapters/adapter-bench.js';
import { BENCH_DIALECTS, type BenchDialect, openBenchDatabase } from './bench-database.js';
import { curvesChart, overheadChart, renderSvg } from './charts.js';
import { listOf, positiveCount, progressTo } from './cli-options.js';
import { type DialectLoads, rawLoads } from './raw-load.js';
import { loadsTable, overheadTable } from './report.js';
import { KEY_KINDS, kindsFor } from './tables.js';

const program = new Command('bench:insert').description(
  'insert rows through raw drivers and through each ORM adapter, with keys from autoincrement, snowkey and UUIDs',
);
for (const [flag, what, value] of [
  ['--rows', 'rows per raw load, per key kind', 1_000_000],
  ['--batch', 'rows per INSERT statement in the raw loads', 1000],
  ['--rounds', 'raw loads per key kind (interleaved); the tables show medians', 3],
  ['--adapter-rows', 'rows per measured run of a bulk write path', 20_000],
  ['--single-rows', 'rows per measured run of a one-row write path', 1000],
  ['--adapter-rounds', 'measured rounds per write path (after one warm-up round)', 5],
] as const)
  program.option(`${flag} <n>`, what, positiveCount(flag), value);
const opts = program
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(BENCH_DIALECTS), [
    ...BENCH_DIALECTS,
  ])
  .addOption(new Option('--only <phase>', 'run one phase only').choices(['raw', 'adapters']))
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), [...ADAPTER_NAMES])
  .option('--out <dir>', 'where the charts, report.md and results.json go', 'bench/insert/results')
  .option('--quiet', 'no progress lines on stderr')
  .parse()
  .opts<{
    rows: number;
    batch: number;
    rounds: number;
    dialects: BenchDialect[];
    only?: 'raw' | 'adapters';
    adapters: string[];
    adapterRows: number;
    singleRows: number;
    adapterRounds: number;
    out: string;
    quiet?: boolean;
  }>();
const progress = progressTo(opts.quiet);

const started = { at: new Date().toISOString(), load: loadavg() };
const settings: string[] = [];
const loads: DialectLoads[] = [];
const overhead: PathResult[] = [];
for (const dialect of opts.dialects) {
  const db = await openBenchDatabase(dialect);
  try {
    settings.push(await db.settings());
    if (opts.only !== 'adapters')
      loads.push(await rawLoads(db, kindsFor(dialect, KEY_KINDS), { ...opts, progress }));
    if (opts.only !== 'raw') {
      const options = {
        bulkRows: opts.adapterRows,
        singleRows: opts.singleRows,
        rounds: opts.adapterRounds,
        progress,
      };
      overhead.push(...(await adapterOverhead(db, opts.adapters, options)));
    }
  } finally {
    await db.close();
  }
}
const ended = { at: new Date().toISOString(), load: loadavg() };

const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
const machine = `Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'CPU'}; load average ${load(started.load)} at the start (${started.at}), ${load(ended.load)} at the end (${ended.at})`;
const command = `pnpm bench:insert ${process.argv.slice(2).join(' ')}`.trim();
const sections = [`Command: \`${command}\``, machine, settings.map((s) => `- ${s}`).join('\n')];
const n = (x: number) => x.toLocaleString('en-US');
if (loads.length) {
  sections.push(
    `### Raw drivers, ${n(opts.rows)} rows per key kind, ${opts.batch}-row INSERTs, median of ${opts.rounds} interleaved loads`,
    loadsTable(loads),
  );
}
if (overhead.length) {
  sections.push(
    `### Through the ORMs: ${n(opts.adapterRows)} rows per bulk run, ${n(opts.singleRows)} per one-row run, median of ${opts.adapterRounds} interleaved rounds`,
    overheadTable(overhead),
  );
}
const report = `${sections.join('\n\n')}\n`;
process.stdout.write(report);

mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'report.md'), report);
const results = { command, started, ended, settings, loads, overhead };
writeFileSync(join(opts.out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
if (loads.length)
  writeFileSync(join(opts.out, 'insert-curves.svg'), await renderSvg(curvesChart(loads, opts.rows)));
if (overhead.length)
  writeFileSync(join(opts.out, 'adapter-overhead.svg'), await renderSvg(overheadChart(overhead)));
progress(`wrote ${opts.out}/report.md, results.json and the charts`);
