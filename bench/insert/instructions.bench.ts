// What each adapter adds to an insert, counted in instructions instead of seconds: every write path
// of every adapter runs in each of its three variants (autoincrement, hand-set ids, snowkey), one
// Node process per database, adapter and variant under `valgrind --tool=callgrind`, which counts the
// instructions between writes (instructions-child.ts). A process of its own for each, as in an
// application: in a process shared with other ORMs or variants, V8's view of the code they share
// (the driver, Node's streams) depends on what ran before, and that moved the counts by up to 30%. A count does not move with the machine's load, so a few rounds
// tell a 1% difference apart where the clock cannot. `pnpm bench:insert:instructions --help`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { VARIANTS, type Variant } from './adapters/adapter-bench.js';
import { ADAPTER_NAMES, loadAdapterBench } from './adapters/index.js';
import { BENCH_DIALECTS, type BenchDialect } from './bench-database.js';
import { COLLECTION_DUMPS, type Dump, readDumps } from './callgrind-dumps.js';
import { instructionsChart, renderSvg } from './charts.js';
import { listOf, positiveCount } from './cli-options.js';
import { instructionsGoal, instructionsTable, type PathInstructions } from './report.js';
import { extent, sum } from './stats.js';

const opts = new Command('bench:insert:instructions')
  .description('count the instructions each adapter adds to an insert, under valgrind (callgrind)')
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(BENCH_DIALECTS), [
    ...BENCH_DIALECTS,
  ])
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), [...ADAPTER_NAMES])
  .option(
    '--warmup <n>',
    'warm-up rounds per write path, run with the count off so V8 has compiled what it will',
    positiveCount('--warmup'),
    5,
  )
  .option(
    '--single-warmup <n>',
    // A one-row call runs most functions once: after 4 rounds of 300, V8 was still tiering them
    // up, and with 12 Knex's one-row count on SQLite was 17-20% lower and its rounds 2 points
    // apart instead of 12.
    'warm-up rounds per one-row write path',
    positiveCount('--single-warmup'),
    12,
  )
  .option('--rounds <n>', 'measured rounds per write path, summed', positiveCount('--rounds'), 5)
  .option(
    '--adapter-rows <n>',
    'rows per measured write of a bulk path',
    positiveCount('--adapter-rows'),
    2000,
  )
  .option(
    '--single-rows <n>',
    // A one-row call costs 100-1000 times a bulk row: 300 of them are as much work as a bulk
    // write, so the collections and tier-ups that land in one round weigh as little there.
    'rows per measured write of a one-row path (one call each)',
    positiveCount('--single-rows'),
    300,
  )
  .option(
    '--processes <n>',
    // Rounds in one process agree to a point or two, but two processes of the same variant can
    // differ by 10% (V8 optimizing differently: a one-row Kysely insert on MariaDB counted +0.2%
    // against hand-set ids in one pair of processes and +13.7% in another), so each variant can
    // run in several, and their rounds are joined: process p's rounds against process p's.
    'processes per database, adapter and variant, whose rounds are joined',
    positiveCount('--processes'),
    1,
  )
  .option(
    '--jobs <n>',
    'valgrind processes at once (one per database, adapter and variant)',
    positiveCount('--jobs'),
    2,
  )
  .option(
    '--out <dir>',
    'where report.md, results.json and the chart go',
    'bench/insert/results-instructions',
  )
  .option('--quiet', 'no progress lines on stderr')
  .parse()
  .opts<{
    dialects: BenchDialect[];
    adapters: string[];
    warmup: number;
    singleWarmup: number;
    rounds: number;
    adapterRows: number;
    singleRows: number;
    processes: number;
    jobs: number;
    out: string;
    quiet?: boolean;
  }>();

const progress = (line: string) => {
  if (!opts.quiet) process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
};

/** Runs instructions-child.ts under callgrind for one database and variant and returns its dumps. */
async function measure(
  dialect: BenchDialect,
  adapter: string,
  variant: Variant,
  dir: string,
): Promise<Dump[]> {
  const args = [
    '--tool=callgrind',
    // Node's start-up and module loading uncounted (the child switches the count on before its
    // first counted round): a run takes 2.6 times less, with the same counts.
    '--instr-atstart=no',
    `--callgrind-out-file=${join(dir, 'cg.%p')}`,
    ...COLLECTION_DUMPS,
    process.execPath,
    // One thread for V8's compilers and collector, so their work lands in the write that asked
    // for it. No memory reducer: it collects when the allocation rate per second drops, and under
    // valgrind, 50 times slower, every process looked idle to it.
    '--single-threaded',
    '--no-memory-reducer',
    // snowkey's packages as published (their built dist/), not their TypeScript source through
    // tsx, which wraps every named closure in a __name() call that the published code never makes.
    // tsx's ESM loader only: the bench's own files are ES modules. Its CommonJS hook would run in
    // every require() the drivers make, and mysql2's promise() makes one per query (TypeORM calls
    // it for every statement): 16k instructions a call there, which no application pays.
    '--import',
    'tsx/esm',
    'bench/insert/instructions-child.ts',
    dialect,
    variant,
    adapter,
    String(opts.warmup),
    String(opts.rounds),
    String(opts.adapterRows),
    String(opts.singleRows),
    String(opts.singleWarmup),
  ];
  const child = spawn('valgrind', args, { stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0)
    throw new Error(
      `valgrind on ${dialect} ${adapter} ${variant} exited with ${code}:\n${stderr.slice(-4000)}`,
    );
  return readDumps(dir, child.pid!);
}

function summarise(
  dialect: BenchDialect,
  dumps: Readonly<Record<Variant, readonly Dump[]>>,
): PathInstructions[] {
  // label: <adapter>.<path index>.<round>; `warm-up` ends the count of the switch back on
  const byPath = new Map<string, Record<Variant, Dump[]>>();
  for (const variant of VARIANTS) {
    for (const d of dumps[variant]) {
      const [adapter, index, round] = d.label.split('.');
      if (round === undefined) continue;
      const key = `${adapter}.${index}`;
      const entry = byPath.get(key) ?? { autoincrement: [], 'hand-set': [], snowkey: [] };
      byPath.set(key, entry);
      entry[variant].push(d);
    }
  }
  return [...byPath].map(([key, byVariant]) => {
    const [adapterName, index] = key.split('.') as [string, string];
    const adapter = adapters.get(adapterName)!;
    const path = adapter.paths[Number(index)]!;
    const rowsPerWrite = path.rowsPerCall === 1 ? opts.singleRows : opts.adapterRows;
    const rounds = byVariant.snowkey.map(
      (_, r) =>
        Object.fromEntries(
          VARIANTS.map((v) => {
            const { total, compiling, collecting } = byVariant[v][r]!;
            return [v, { total, compiling, collecting }];
          }),
        ) as Record<Variant, { total: number; compiling: number; collecting: number }>,
    );
    const run = (v: Variant) => rounds.map((r) => r[v].total - r[v].compiling - r[v].collecting);
    const all = (v: Variant) => rounds.map((r) => r[v].total);
    const snow = run('snowkey');
    const hand = run('hand-set');
    return {
      dialect,
      adapter: adapter.name,
      path: path.name,
      rowsPerWrite,
      perRow: Object.fromEntries(
        VARIANTS.map((v) => [v, sum(run(v)) / (rowsPerWrite * rounds.length)]),
      ) as Record<Variant, number>,
      vsHandSet: sum(snow) / sum(hand) - 1,
      vsHandSetRange: extent(snow.map((s, r) => s / hand[r]! - 1)),
      vsHandSetAll: sum(all('snowkey')) / sum(all('hand-set')) - 1,
      vsAutoincrement: sum(snow) / sum(run('autoincrement')) - 1,
      sameStatements: path.sameStatements !== false,
      rounds,
    };
  });
}

const adapters = new Map(
  await Promise.all(opts.adapters.map(async (name) => [name, await loadAdapterBench(name)] as const)),
);
const started = new Date().toISOString();
const work = mkdtempSync(join(tmpdir(), 'sk-callgrind-'));
const results: PathInstructions[] = [];
try {
  const processes = Array.from({ length: opts.processes }, (_, p) => p + 1);
  const jobName = (dialect: BenchDialect, adapter: string, variant: Variant, n: number) =>
    `${dialect} ${adapter} ${variant} ${n}`;
  const queue = opts.dialects.flatMap((dialect) =>
    opts.adapters.flatMap((adapter) =>
      processes.flatMap((n) => VARIANTS.map((variant) => ({ dialect, adapter, variant, n }))),
    ),
  );
  const done = new Map<string, Dump[]>();
  await Promise.all(
    Array.from({ length: Math.min(opts.jobs, queue.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const name = jobName(job.dialect, job.adapter, job.variant, job.n);
        progress(`${name}: under callgrind`);
        const dir = join(work, name.replaceAll(' ', '-'));
        mkdirSync(dir);
        done.set(name, await measure(job.dialect, job.adapter, job.variant, dir));
        progress(`${name}: done`);
      }
    }),
  );
  for (const dialect of opts.dialects) {
    const dumps = Object.fromEntries(
      VARIANTS.map((v) => [
        v,
        opts.adapters.flatMap((a) => processes.flatMap((p) => done.get(jobName(dialect, a, v, p))!)),
      ]),
    );
    results.push(...summarise(dialect, dumps as Record<Variant, Dump[]>));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The command as it measured: where the report went (--out) is left out.
const args = process.argv.slice(2);
const measured = args.filter((a, i) => a !== '--out' && args[i - 1] !== '--out' && !a.startsWith('--out='));
const command = `pnpm bench:insert:instructions ${measured.join(' ')}`.trim();
const report = `${[
  `Command: \`${command}\` (started ${started}, Node ${process.version})`,
  `### Instructions per row, ${opts.adapterRows.toLocaleString('en-US')} rows per bulk write, ${opts.singleRows} per one-row run, sum of ${opts.rounds} rounds after ${opts.warmup} warm-up rounds (${opts.singleWarmup} for one-row paths), ${opts.processes === 1 ? 'one process' : `${opts.processes} processes`} per adapter and variant`,
  instructionsTable(results),
  ['```', ...instructionsGoal(results), '```'].join('\n'),
].join('\n\n')}\n`;
process.stdout.write(report);
mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'report.md'), report);
writeFileSync(join(opts.out, 'results.json'), `${JSON.stringify({ command, started, results }, null, 2)}\n`);
writeFileSync(join(opts.out, 'adapter-instructions.svg'), await renderSvg(instructionsChart(results)));
progress(`wrote ${opts.out}/report.md, results.json and adapter-instructions.svg`);
