// `pnpm bench:insert:instructions [--help]`: what each adapter adds to an insert, counted in instructions
// under `valgrind --tool=callgrind`: every write path in each variant (autoincrement, hand-set ids,
// snowkey), one Node process per database, adapter and variant (in a process shared with other ORMs or
// variants, V8's view of the code they share moved the counts by up to 30%), instructions-child.ts.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { sum } from '../measure.js';
import { ADAPTER_NAMES, loadAdapterBench, VARIANTS, type Variant } from './adapters/adapter-bench.js';
import { BENCH_DIALECTS, type BenchDialect } from './bench-database.js';
import { COLLECTION_DUMPS, type Dump, readDumps } from './callgrind-dumps.js';
import { instructionsChart, renderSvg } from './charts.js';
import { listOf, positiveCount, progressTo } from './cli-options.js';
import { instructionsGoal, instructionsTable, type PathInstructions } from './report.js';

const count = (flag: string, what: string, value: number) =>
  [`${flag} <n>`, what, positiveCount(flag), value] as const;
const opts = new Command('bench:insert:instructions')
  .description('count the instructions each adapter adds to an insert, under valgrind (callgrind)')
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(BENCH_DIALECTS), [
    ...BENCH_DIALECTS,
  ])
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), [...ADAPTER_NAMES])
  .option(
    ...count('--warmup', 'warm-up rounds per write path, uncounted, so V8 has compiled what it will', 5),
  )
  // A one-row call runs most functions once: after 4 rounds of 300, V8 was still tiering them up.
  .option(...count('--single-warmup', 'warm-up rounds per one-row write path', 12))
  .option(...count('--rounds', 'measured rounds per write path, summed', 5))
  .option(...count('--adapter-rows', 'rows per measured write of a bulk path', 2000))
  // 300 one-row calls are as much work as a bulk write, so a collection in one round weighs as little.
  .option(...count('--single-rows', 'rows per measured write of a one-row path (one call each)', 300))
  // Two processes of the same variant can differ by 10% (V8 optimizing differently); their rounds are
  // joined, process p's against process p's.
  .option(...count('--processes', 'processes per database, adapter and variant, whose rounds are joined', 1))
  .option(...count('--jobs', 'valgrind processes at once (one per database, adapter and variant)', 2))
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
const progress = progressTo(opts.quiet);

/** Runs instructions-child.ts under callgrind for one database, adapter and variant and returns its dumps. */
async function measure(
  dialect: BenchDialect,
  adapter: string,
  variant: Variant,
  dir: string,
): Promise<Dump[]> {
  const args = [
    '--tool=callgrind',
    '--instr-atstart=no', // Node's start-up and module loading uncounted: the child switches the count on
    `--callgrind-out-file=${join(dir, 'cg.%p')}`,
    ...COLLECTION_DUMPS,
    process.execPath,
    // One thread for V8's compilers and collector, so their work lands in the write that asked for it;
    // no memory reducer, which under valgrind (50 times slower) took every process for idle.
    '--single-threaded',
    '--no-memory-reducer',
    // snowkey's built dist/ (tsx wraps the source's named closures in __name()), and tsx's ESM hook
    // only: its CommonJS hook would run in every require() the drivers make (mysql2: one per query).
    '--import',
    'tsx/esm',
    'bench/insert/instructions-child.ts',
    ...[
      dialect,
      variant,
      adapter,
      opts.warmup,
      opts.rounds,
      opts.adapterRows,
      opts.singleRows,
      opts.singleWarmup,
    ].map(String),
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

/** One database's dumps (labelled `<adapter>.<path index>.<round>`) as a result per write path. */
function summarise(
  dialect: BenchDialect,
  dumps: Readonly<Record<Variant, readonly Dump[]>>,
): PathInstructions[] {
  const byPath = new Map<string, Record<Variant, Dump[]>>();
  for (const variant of VARIANTS) {
    for (const d of dumps[variant]) {
      const [adapter, index, round] = d.label.split('.');
      if (round === undefined) continue; // `warm-up`: the count of the switch back on
      const key = `${adapter}.${index}`;
      if (!byPath.has(key)) byPath.set(key, { autoincrement: [], 'hand-set': [], snowkey: [] });
      byPath.get(key)![variant].push(d);
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
    const own = (v: Variant) => rounds.map((r) => r[v].total - r[v].compiling - r[v].collecting);
    const all = (v: Variant) => sum(rounds.map((r) => r[v].total));
    const [snow, hand] = [own('snowkey'), own('hand-set')];
    const byRound = snow.map((s, r) => s / hand[r]! - 1);
    return {
      dialect,
      adapter: adapter.name,
      path: path.name,
      rowsPerWrite,
      perRow: Object.fromEntries(
        VARIANTS.map((v) => [v, sum(own(v)) / (rowsPerWrite * rounds.length)]),
      ) as Record<Variant, number>,
      vsHandSet: sum(snow) / sum(hand) - 1,
      vsHandSetRange: [Math.min(...byRound), Math.max(...byRound)],
      vsHandSetAll: all('snowkey') / all('hand-set') - 1,
      vsAutoincrement: sum(snow) / sum(own('autoincrement')) - 1,
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
  const queue = opts.dialects.flatMap((dialect) =>
    opts.adapters.flatMap((adapter) =>
      processes.flatMap((n) => VARIANTS.map((variant) => ({ dialect, adapter, variant, n }))),
    ),
  );
  const name = (j: (typeof queue)[number]) => `${j.dialect} ${j.adapter} ${j.variant} ${j.n}`;
  const done = new Map<string, Dump[]>();
  await Promise.all(
    Array.from({ length: Math.min(opts.jobs, queue.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        progress(`${name(job)}: under callgrind`);
        const dir = join(work, name(job).replaceAll(' ', '-'));
        mkdirSync(dir);
        done.set(name(job), await measure(job.dialect, job.adapter, job.variant, dir));
        progress(`${name(job)}: done`);
      }
    }),
  );
  for (const dialect of opts.dialects) {
    const dumps = Object.fromEntries(
      VARIANTS.map((variant) => [
        variant,
        opts.adapters.flatMap((adapter) =>
          processes.flatMap((n) => done.get(name({ dialect, adapter, variant, n }))!),
        ),
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
