// `pnpm bench:insert [--help]`: raw-driver loads per key kind, then each adapter against hand-set ids and autoincrement.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@snowkey/test-harness';
import { Command, Option } from 'commander';
import type { Dialect } from '../fresh-database.js';
import { adapterOverhead, type PathResult } from './adapter-overhead.js';
import { ADAPTER_NAMES } from './adapters/adapter-bench.js';
import { DIALECTS, serverSettings } from './bench-database.js';
import { curvesChart, overheadChart, renderSvg } from './charts.js';
import { count, listOf, progress } from './cli-options.js';
import { type DialectLoads, rawLoads } from './raw-load.js';
import { loadsTable, overheadTable } from './report.js';

const opts = new Command('bench:insert')
  .description(
    'insert rows through raw drivers and through each ORM adapter, keyed by autoincrement, snowkey and UUIDs',
  )
  .option('--rows <n>', 'rows per raw load (1000-row INSERTs), per key kind', count('--rows'), 1_000_000)
  .option(
    '--rounds <n>',
    'raw loads per key kind, interleaved; the tables show medians',
    count('--rounds'),
    3,
  )
  .option('--adapter-rows <n>', 'rows per measured write of a bulk path', count('--adapter-rows'), 20_000)
  .option('--single-rows <n>', 'rows per measured write of a one-row path', count('--single-rows'), 1000)
  .option(
    '--adapter-rounds <n>',
    'measured rounds per write path, after a warm-up',
    count('--adapter-rounds'),
    5,
  )
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(DIALECTS), [...DIALECTS])
  .addOption(new Option('--only <phase>', 'run one phase only').choices(['raw', 'adapters']))
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), ADAPTER_NAMES)
  .option('--out <dir>', 'where the charts, report.md and results.json go', 'bench/insert/results')
  .parse()
  .opts<{
    rows: number;
    rounds: number;
    adapterRows: number;
    singleRows: number;
    adapterRounds: number;
    dialects: Dialect[];
    only?: 'raw' | 'adapters';
    adapters: string[];
    out: string;
  }>();

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

const command = `pnpm bench:insert ${process.argv.slice(2).join(' ')}`.trim();
const n = (x: number) => x.toLocaleString('en-US');
const sections = [
  `Command: \`${command}\``,
  `Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'CPU'}`,
  settings.map((s) => `- ${s}`).join('\n'),
];
if (loads.length)
  sections.push(
    `### Raw drivers, ${n(opts.rows)} rows per key kind, 1000-row INSERTs, median of ${opts.rounds} interleaved loads`,
    loadsTable(loads),
  );
if (overhead.length)
  sections.push(
    `### Through the ORMs: ${n(opts.adapterRows)} rows per bulk run, ${n(opts.singleRows)} per one-row run, median of ${opts.adapterRounds} interleaved rounds`,
    overheadTable(overhead),
  );
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
