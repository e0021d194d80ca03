// `pnpm bench:insert:instructions [--help]`: each adapter's write paths counted in instructions under
// `valgrind --tool=callgrind`, in one Node process per database, adapter and variant (in a shared one,
// V8's view of the code they share moved the counts by up to 30%), instructions-child.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import type { Dialect } from '../fresh-database.js';
import { ADAPTER_NAMES, loadAdapterBench, VARIANTS, type Variant } from './adapters/adapter-bench.js';
import { DIALECTS } from './bench-database.js';
import { COLLECTION_DUMPS, type Dump, readDumps } from './callgrind-dumps.js';
import { instructionsChart, renderSvg } from './charts.js';
import { count, listOf, progress } from './cli-options.js';
import { instructionsTable, type PathInstructions, snowkeyVs } from './report.js';

// 2000 rows a bulk write; 300 one-row calls are as much work, so a collection in one round weighs as little.
const [BULK_ROWS, SINGLE_ROWS] = [2000, 300];
// A one-row call runs most functions once: after 4 rounds of 300, V8 was still tiering them up.
const SINGLE_WARMUP = 12;

const opts = new Command('bench:insert:instructions')
  .description('count the instructions each adapter adds to an insert, under valgrind (callgrind)')
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', listOf(DIALECTS), [...DIALECTS])
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, listOf(ADAPTER_NAMES), ADAPTER_NAMES)
  .option(
    '--warmup <n>',
    `uncounted writes per bulk path first (${SINGLE_WARMUP} per one-row path)`,
    count('--warmup'),
    5,
  )
  .option('--rounds <n>', 'counted writes per write path, summed', count('--rounds'), 5)
  // Two processes of one variant can differ by 10% (V8 optimizing differently): process p's rounds pair with p's.
  .option(
    '--processes <n>',
    'processes per database, adapter and variant, their rounds joined',
    count('--processes'),
    1,
  )
  .option(
    '--out <dir>',
    'where report.md, results.json and the chart go',
    'bench/insert/results-instructions',
  )
  .parse()
  .opts<{
    dialects: Dialect[];
    adapters: string[];
    warmup: number;
    rounds: number;
    processes: number;
    out: string;
  }>();

/** instructions-child.ts under callgrind for one database, adapter and variant; its dumps. */
async function measure(dialect: Dialect, adapter: string, variant: Variant, dir: string): Promise<Dump[]> {
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
      ...[dialect, variant, adapter, opts.warmup, opts.rounds, BULK_ROWS, SINGLE_ROWS, SINGLE_WARMUP].map(
        String,
      ),
    ],
    { stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const [code] = await once(child, 'close');
  if (code !== 0)
    throw new Error(`valgrind on ${dialect} ${adapter} ${variant} exited with ${code}:\n${stderr}`);
  return readDumps(dir, child.pid!);
}

const jobs = opts.dialects.flatMap((dialect) =>
  opts.adapters.flatMap((adapter) =>
    Array.from({ length: opts.processes }, (_, p) =>
      VARIANTS.map((variant) => ({ dialect, adapter, variant, p })),
    ).flat(),
  ),
);
const work = mkdtempSync(join(tmpdir(), 'sk-callgrind-'));
const dumps = new Map<(typeof jobs)[number], Dump[]>();
try {
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const name = `${job.dialect} ${job.adapter} ${job.variant} ${job.p + 1}`;
      progress(`${name}: under callgrind`);
      const dir = join(work, name.replaceAll(' ', '-'));
      mkdirSync(dir);
      dumps.set(job, await measure(job.dialect, job.adapter, job.variant, dir));
      progress(`${name}: done`);
    }
  };
  await Promise.all([worker(), worker()]); // two valgrind processes at once
} finally {
  rmSync(work, { recursive: true, force: true });
}

// Each write path's counted rounds (dumps `<adapter>.<path>.<round>`), round r of each variant paired.
const results: PathInstructions[] = [];
for (const dialect of opts.dialects) {
  for (const name of opts.adapters) {
    const adapter = await loadAdapterBench(name);
    const mine = jobs.filter((j) => j.dialect === dialect && j.adapter === name);
    for (const [index, path] of adapter.paths.entries()) {
      const rounds = VARIANTS.map((v) =>
        mine
          .filter((j) => j.variant === v)
          .flatMap((j) => dumps.get(j)!.filter((d) => d.label.startsWith(`${name}.${index}.`))),
      );
      if (!rounds[0]!.length) continue;
      results.push({
        dialect,
        adapter: adapter.name,
        path: path.name,
        rowsPerWrite: path.single ? SINGLE_ROWS : BULK_ROWS,
        otherSql: path.otherSql === true,
        rounds: rounds[0]!.map(
          (_, r) =>
            Object.fromEntries(
              VARIANTS.map((v, i) => [v, rounds[i]![r]!]),
            ) as unknown as PathInstructions['rounds'][number],
        ),
      });
    }
  }
}

const command = `pnpm bench:insert:instructions ${process.argv.slice(2).join(' ')}`.trim();
const report = `${[
  `Command: \`${command}\` (Node ${process.version})`,
  `### Instructions per row, ${BULK_ROWS} rows per bulk write, ${SINGLE_ROWS} per one-row run, sum of ${opts.rounds} rounds after ${opts.warmup} warm-up rounds (${SINGLE_WARMUP} for one-row paths), ${opts.processes === 1 ? 'one process' : `${opts.processes} processes`} per adapter and variant`,
  instructionsTable(results),
].join('\n\n')}\n`;
process.stdout.write(report);
mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'report.md'), report);
writeFileSync(join(opts.out, 'results.json'), `${JSON.stringify({ command, results }, null, 2)}\n`);
const chart = instructionsChart(results.map((r) => ({ ...r, vsHandSet: snowkeyVs(r) })));
writeFileSync(join(opts.out, 'adapter-instructions.svg'), await renderSvg(chart));
progress(`wrote ${opts.out}/report.md, results.json and adapter-instructions.svg`);
