// `pnpm bench:insert:instructions [--help]`: each adapter's write paths counted in instructions under
// `valgrind --tool=callgrind`, in one Node process per database, adapter and variant (in a shared one,
// V8's view of the code they share moved the counts by up to 30%), instructions-child.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { DATABASE_NAME, type Dialect } from '../fresh-database.js';
import { median, table } from '../measure.js';
import { ADAPTER_NAMES, loadAdapter, VARIANTS, type Variant } from './adapters/adapter-bench.js';
import { DIALECTS } from './bench-database.js';
import { COLLECTION_DUMPS, type Dump, readDumps } from './callgrind-dumps.js';
import { instructionsChart, renderSvg } from './charts.js';
import { count, listOf, progress } from './cli-options.js';

// 2000 rows a bulk write; 300 one-row calls are as much work, so a collection in one round weighs as little.
const [BULK_ROWS, SINGLE_ROWS] = [2000, 300];
// A one-row call runs most functions once: after 4 rounds of 300, V8 was still tiering them up.
const SINGLE_WARMUP = 12;

type Counts = Record<'warmup' | 'rounds' | 'processes', number>;
const opts = new Command('bench:insert:instructions')
  .description('count the instructions each adapter adds to an insert, under valgrind (callgrind)')
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(DIALECTS), [...DIALECTS])
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), ADAPTER_NAMES)
  .option('--warmup <n>', `uncounted writes first per path (${SINGLE_WARMUP} on one-row paths)`, count, 5)
  .option('--rounds <n>', 'counted writes per write path, summed', count, 5)
  // Two processes of one variant can differ by 10% (V8 optimizing differently): process p's rounds pair with p's.
  .option('--processes <n>', 'processes per database, adapter and variant, their rounds joined', count, 1)
  .option('--out <dir>', 'for report.md, results.json and the chart', 'bench/insert/results-instructions')
  .parse()
  .opts<Counts & { dialects: Dialect[]; adapters: string[]; out: string }>();

type Job = { dialect: Dialect; adapter: string; variant: Variant };

/** instructions-child.ts under callgrind for one database, adapter and variant, its dumps in `dir`. */
async function measure({ dialect, adapter, variant }: Job, dir: string): Promise<Dump[]> {
  const name = `${dialect} ${adapter} ${variant}`;
  progress(`${name}: under callgrind`);
  mkdirSync(dir);
  const counts = [opts.warmup, opts.rounds, BULK_ROWS, SINGLE_ROWS, SINGLE_WARMUP].map(String);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no', // start-up and module loading uncounted: the child switches the count on
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      ...COLLECTION_DUMPS,
      process.execPath,
      // One V8 thread, so compiling and collecting land in the write that caused them; no memory
      // reducer, which under valgrind (50 times slower) took every process for idle.
      '--single-threaded',
      '--no-memory-reducer',
      // snowkey's built dist/ (tsx wraps the source's closures in __name()); tsx's ESM hook only,
      // as its CommonJS hook runs in every require() the drivers make.
      '--import',
      'tsx/esm',
      'bench/insert/instructions-child.ts',
      ...[dialect, variant, adapter, ...counts],
    ],
    { stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`valgrind on ${name} exited with ${code}:\n${stderr}`);
  progress(`${name}: done`);
  return readDumps(dir, child.pid!);
}

// Every process's dumps, two valgrind processes at once; a variant's processes in order, so that
// process p's rounds pair with process p's of the other variants.
const variants = Array.from({ length: opts.processes }, () => VARIANTS).flat();
const jobs: Job[] = opts.dialects.flatMap((dialect) =>
  opts.adapters.flatMap((adapter) => variants.map((variant) => ({ dialect, adapter, variant }))),
);
const dumps: Dump[][] = [];
const work = mkdtempSync(join(tmpdir(), 'sk-callgrind-'));
let next = 0;
const worker = async () => {
  for (let i = next++; i < jobs.length; i = next++) dumps[i] = await measure(jobs[i]!, join(work, String(i)));
};
try {
  await Promise.all([worker(), worker()]);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// Each write path on each database, its counted rounds (dumps `<adapter>.<path>.<round>`) paired across the
// variants, round r with round r.
const benches = await Promise.all(opts.adapters.map(async (id) => ({ id, bench: await loadAdapter(id) })));
const results = opts.dialects.flatMap((dialect) =>
  benches.flatMap(({ id, bench }) =>
    bench.paths.flatMap((path, index) => {
      const rounds = (v: Variant) =>
        jobs.flatMap((job, i) =>
          job.dialect === dialect && job.adapter === id && job.variant === v
            ? dumps[i]!.filter((d) => d.label.startsWith(`${id}.${index}.`))
            : [],
        );
      const [auto, hand, snow] = VARIANTS.map(rounds) as [Dump[], Dump[], Dump[]];
      if (!auto.length) return [];
      return {
        dialect,
        adapter: bench.name,
        path: path.name,
        rowsPerWrite: path.single ? SINGLE_ROWS : BULK_ROWS,
        otherSql: path.otherSql === true,
        rounds: auto.map((a, r) => ({ autoincrement: a, 'hand-set': hand[r]!, snowkey: snow[r]! })),
      };
    }),
  ),
);
type PathInstructions = (typeof results)[number];

/** A round's instructions but V8's compilers and collector (their work depends on what ran before). */
const own = (d: Dump) => d.total - d.compiling - d.collecting;
const sumOf = (r: PathInstructions, v: Variant) => r.rounds.reduce((s, round) => s + own(round[v]), 0);
const vsHandSet = (r: PathInstructions) => sumOf(r, 'snowkey') / sumOf(r, 'hand-set') - 1;
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;
const perRow = (r: PathInstructions, v: Variant) =>
  `${(sumOf(r, v) / (r.rowsPerWrite * r.rounds.length) / 1000).toFixed(1)}k`;
// Instructions per row of each variant, and snowkey against hand-set ids by the sum and by the median
// round (which V8 compiling or collecting in a round or two does not move).
const rows = results.map((r) => [
  DATABASE_NAME[r.dialect],
  r.adapter,
  r.path,
  perRow(r, 'autoincrement'),
  perRow(r, 'hand-set'),
  perRow(r, 'snowkey'),
  `${pct(vsHandSet(r))}${r.otherSql ? ' (other SQL)' : ''}`,
  pct(median(r.rounds.map((round) => own(round.snowkey) / own(round['hand-set']) - 1))),
]);
const head = ['database', 'adapter', 'write path', 'autoincrement', 'hand-set', 'snowkey', 'vs hand-set'];

const command = `pnpm bench:insert:instructions ${process.argv.slice(2).join(' ')}`.trim();
const processes = opts.processes === 1 ? 'one process' : `${opts.processes} processes`;
const report = `${[
  `Command: \`${command}\` (Node ${process.version})`,
  `### Instructions per row, ${BULK_ROWS} rows per bulk write, ${SINGLE_ROWS} per one-row run, sum of ${opts.rounds} rounds after ${opts.warmup} warm-up rounds (${SINGLE_WARMUP} for one-row paths), ${processes} per adapter and variant`,
  table([...head, 'median round'], rows, 'lllrrrrr'),
].join('\n\n')}\n`;
process.stdout.write(report);
mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'report.md'), report);
writeFileSync(join(opts.out, 'results.json'), `${JSON.stringify({ command, results }, null, 2)}\n`);
const chart = instructionsChart(results.map((r) => ({ ...r, vsHandSet: vsHandSet(r) })));
writeFileSync(join(opts.out, 'adapter-instructions.svg'), await renderSvg(chart));
progress(`wrote ${opts.out}/report.md, results.json and adapter-instructions.svg`);
