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
import { Command, InvalidArgumentError } from 'commander';
import { markdownTable } from 'markdown-table';
import { VARIANTS, type Variant } from './adapters/adapter-bench.js';
import { ADAPTER_NAMES, loadAdapterBench } from './adapters/index.js';
import { BENCH_DIALECTS, type BenchDialect } from './bench-database.js';
import { type Dump, readDumps } from './callgrind-dumps.js';
import { instructionsChart, renderSvg } from './charts.js';
import { median } from './stats.js';

const count = (name: string) => (raw: string) => {
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`${name} must be a positive integer (received ${raw})`);
  return n;
};
const list =
  <T extends string>(allowed: readonly T[]) =>
  (raw: string): T[] => {
    const items = raw.split(',').map((s) => s.trim()) as T[];
    const bad = items.filter((i) => !allowed.includes(i));
    if (bad.length)
      throw new InvalidArgumentError(`unknown: ${bad.join(', ')} (choose from ${allowed.join(', ')})`);
    return items;
  };

const opts = new Command('bench:insert:instructions')
  .description('count the instructions each adapter adds to an insert, under valgrind (callgrind)')
  .option('--dialects <list>', 'databases: postgres,mysql,sqlite', list(BENCH_DIALECTS), [...BENCH_DIALECTS])
  .option('--adapters <list>', `ORMs: ${ADAPTER_NAMES.join(',')}`, list(ADAPTER_NAMES), [...ADAPTER_NAMES])
  .option('--rounds <n>', 'measured rounds per write path (after one warm-up round)', count('--rounds'), 3)
  .option('--adapter-rows <n>', 'rows per measured write of a bulk path', count('--adapter-rows'), 2000)
  .option('--single-rows <n>', 'rows per measured write of a one-row path', count('--single-rows'), 100)
  .option(
    '--jobs <n>',
    'valgrind processes at once (one per database, adapter and variant)',
    count('--jobs'),
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
    rounds: number;
    adapterRows: number;
    singleRows: number;
    jobs: number;
    out: string;
    quiet?: boolean;
  }>();

const progress = (line: string) => {
  if (!opts.quiet) process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
};

/** One write path on one database: instructions per row per variant, and snowkey against the baselines. */
export interface PathInstructions {
  readonly dialect: BenchDialect;
  readonly adapter: string;
  readonly path: string;
  readonly rowsPerWrite: number;
  /** Median over the rounds, per variant: instructions per row, compilers left out. */
  readonly perRow: Readonly<Record<Variant, number>>;
  /** snowkey's median over hand-set's median, minus one, compilers left out. */
  readonly vsHandSet: number;
  /** The same from snowkey's fewest against hand-set's most, and from its most against hand-set's fewest. */
  readonly vsHandSetRange: readonly [number, number];
  /** {@link vsHandSet} with every instruction counted, the compilers' too. */
  readonly vsHandSetAll: number;
  readonly vsAutoincrement: number;
  /** False where the ORM sends other statements for hand-set ids: there instructions do not compare. */
  readonly sameStatements: boolean;
  readonly rounds: readonly Readonly<Record<Variant, { total: number; compiling: number }>>[];
}

/** Runs instructions-child.ts under callgrind for one database and variant and returns its dumps. */
async function measure(
  dialect: BenchDialect,
  adapter: string,
  variant: Variant,
  dir: string,
): Promise<Dump[]> {
  const args = [
    '--tool=callgrind',
    `--callgrind-out-file=${join(dir, 'cg.%p')}`,
    process.execPath,
    // One thread for V8's compilers and collector, so their work lands in the write that asked
    // for it; --expose-gc for the collection before each write.
    '--single-threaded',
    '--expose-gc',
    '--conditions=dev-source',
    '--import',
    'tsx',
    'bench/insert/instructions-child.ts',
    dialect,
    variant,
    adapter,
    String(opts.rounds),
    String(opts.adapterRows),
    String(opts.singleRows),
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
  // label: <adapter>.<path index>.<round>; round -1 is the warm-up
  const byPath = new Map<string, Record<Variant, Dump[]>>();
  for (const variant of VARIANTS) {
    for (const d of dumps[variant]) {
      const [adapter, index, round] = d.label.split('.');
      if (round === undefined || Number(round) < 0) continue;
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
          VARIANTS.map((v) => [v, { total: byVariant[v][r]!.total, compiling: byVariant[v][r]!.compiling }]),
        ) as Record<Variant, { total: number; compiling: number }>,
    );
    const run = (v: Variant) => rounds.map((r) => r[v].total - r[v].compiling);
    const all = (v: Variant) => rounds.map((r) => r[v].total);
    const snow = run('snowkey');
    const hand = run('hand-set');
    return {
      dialect,
      adapter: adapter.name,
      path: path.name,
      rowsPerWrite,
      perRow: Object.fromEntries(VARIANTS.map((v) => [v, median(run(v)) / rowsPerWrite])) as Record<
        Variant,
        number
      >,
      vsHandSet: median(snow) / median(hand) - 1,
      vsHandSetRange: [Math.min(...snow) / Math.max(...hand) - 1, Math.max(...snow) / Math.min(...hand) - 1],
      vsHandSetAll: median(all('snowkey')) / median(all('hand-set')) - 1,
      vsAutoincrement: median(snow) / median(run('autoincrement')) - 1,
      sameStatements: path.sameStatements !== false,
      rounds,
    };
  });
}

const DATABASE: Record<BenchDialect, string> = { postgres: 'PostgreSQL', mysql: 'MariaDB', sqlite: 'SQLite' };
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;
const kilo = (n: number) => `${(n / 1000).toFixed(1)}k`;

function table(results: readonly PathInstructions[]): string {
  return markdownTable(
    [
      [
        'database',
        'adapter',
        'write path',
        'autoincrement',
        'hand-set',
        'snowkey',
        'vs hand-set',
        'range over rounds',
        'all instructions',
        'vs autoincrement',
      ],
      ...results.map((r) => [
        DATABASE[r.dialect],
        r.adapter,
        r.path,
        kilo(r.perRow.autoincrement),
        kilo(r.perRow['hand-set']),
        kilo(r.perRow.snowkey),
        r.sameStatements ? pct(r.vsHandSet) : `${pct(r.vsHandSet)} (other SQL)`,
        `${pct(r.vsHandSetRange[0])} .. ${pct(r.vsHandSetRange[1])}`,
        pct(r.vsHandSetAll),
        pct(r.vsAutoincrement),
      ]),
    ],
    { align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] },
  );
}

const adapters = new Map(
  await Promise.all(opts.adapters.map(async (name) => [name, await loadAdapterBench(name)] as const)),
);
const started = new Date().toISOString();
const work = mkdtempSync(join(tmpdir(), 'sk-callgrind-'));
const results: PathInstructions[] = [];
try {
  const queue = opts.dialects.flatMap((dialect) =>
    opts.adapters.flatMap((adapter) => VARIANTS.map((variant) => ({ dialect, adapter, variant }))),
  );
  const done = new Map<string, Dump[]>();
  await Promise.all(
    Array.from({ length: Math.min(opts.jobs, queue.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const name = `${job.dialect} ${job.adapter} ${job.variant}`;
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
      VARIANTS.map((v) => [v, opts.adapters.flatMap((a) => done.get(`${dialect} ${a} ${v}`)!)]),
    );
    results.push(...summarise(dialect, dumps as Record<Variant, Dump[]>));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const within = results.filter((r) => r.sameStatements);
const passing = within.filter((r) => r.vsHandSet <= 0.03);
const command = `pnpm bench:insert:instructions ${process.argv.slice(2).join(' ')}`.trim();
const report = `${[
  `Command: \`${command}\` (started ${started}, Node ${process.version})`,
  `### Instructions per row, ${opts.adapterRows.toLocaleString('en-US')} rows per bulk write, ${opts.singleRows} per one-row run, median of ${opts.rounds} rounds after a warm-up, one process per adapter and variant`,
  table(results),
  [
    '```',
    `snowkey within 3% of hand-set ids (instructions, compilers left out): ${passing.length} of ${within.length} write paths`,
    ...within
      .filter((r) => r.vsHandSet > 0.03)
      .map((r) => `  above: ${DATABASE[r.dialect]} ${r.adapter} ${r.path} ${pct(r.vsHandSet)}`),
    '```',
  ].join('\n'),
].join('\n\n')}\n`;
process.stdout.write(report);
mkdirSync(opts.out, { recursive: true });
writeFileSync(join(opts.out, 'report.md'), report);
writeFileSync(join(opts.out, 'results.json'), `${JSON.stringify({ command, started, results }, null, 2)}\n`);
writeFileSync(join(opts.out, 'adapter-instructions.svg'), await renderSvg(instructionsChart(results)));
progress(`wrote ${opts.out}/report.md, results.json and adapter-instructions.svg`);
