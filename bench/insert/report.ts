import { median, table } from '../measure.js';
import type { PathResult } from './adapter-overhead.js';
import type { Variant } from './adapters/adapter-bench.js';
import { type BenchDialect, DATABASE_NAME } from './bench-database.js';
import type { DialectLoads } from './raw-load.js';

const k = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : `${Math.round(n)}`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const x = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '-');
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;

/** The raw loads: rows/s, the ratio to autoincrement, sizes, and how the rate holds up. */
export function loadsTable(loads: readonly DialectLoads[]): string {
  const rows = loads.flatMap(({ dialect, kinds }) => {
    const auto = kinds.find((s) => s.kind === 'autoincrement');
    return kinds.map((s) => [
      DATABASE_NAME[dialect],
      s.kind,
      k(s.total),
      x(s.vsAutoincrement),
      mb(s.bytes.data),
      mb(s.bytes.index),
      auto ? x((s.bytes.data + s.bytes.index) / (auto.bytes.data + auto.bytes.index)) : '-',
      k(s.slices[0]!),
      k(s.slices.at(-1)!),
      x(s.slices.at(-1)! / s.slices[0]!),
    ]);
  });
  const head = [
    'database',
    'key',
    'rows/s',
    'vs autoincrement',
    'table',
    'other indexes',
    'size vs autoincrement',
  ];
  return table([...head, 'first 10%', 'last 10%', 'last / first'], rows, 'llrrrrrrrr');
}

/** Every adapter's write paths: rows/s of the three variants and the paired ratios. */
export function overheadTable(results: readonly PathResult[]): string {
  const head = ['database', 'ORM', 'write path', 'autoincrement rows/s', 'hand-set rows/s', 'snowkey rows/s'];
  return table(
    [
      ...head,
      'vs hand-set, clock',
      'middle half of rounds',
      'vs hand-set, added CPU',
      'vs autoincrement, clock',
    ],
    results.map((r) => [
      DATABASE_NAME[r.dialect],
      r.adapter,
      r.path,
      k(r.rowsPerSecond.autoincrement),
      k(r.rowsPerSecond['hand-set']),
      k(r.rowsPerSecond.snowkey),
      pct(r.vsHandSet),
      `${pct(r.vsHandSetSpread[0])} .. ${pct(r.vsHandSetSpread[1])}`,
      r.sameStatements ? pct(r.addedCpu) : 'other SQL',
      pct(r.vsAutoincrement),
    ]),
    'lllrrrrrrr',
  );
}

/**
 * One write path on one database under callgrind. `perRow`: instructions per row per variant (mean
 * over the rounds); `vsHandSet`: snowkey's sum over the rounds against hand-set's, minus one, and
 * `vsHandSetRange` the same round by round; V8's compilers and garbage collector are left out of
 * all but `vsHandSetAll`. `sameStatements: false` where the ORM sends other SQL for hand-set ids.
 */
export interface PathInstructions {
  readonly dialect: BenchDialect;
  readonly adapter: string;
  readonly path: string;
  readonly rowsPerWrite: number;
  readonly perRow: Readonly<Record<Variant, number>>;
  readonly vsHandSet: number;
  readonly vsHandSetRange: readonly [number, number];
  readonly vsHandSetAll: number;
  readonly vsAutoincrement: number;
  readonly sameStatements: boolean;
  readonly rounds: readonly Readonly<
    Record<Variant, { total: number; compiling: number; collecting: number }>
  >[];
}

/**
 * The median round of snowkey against hand-set's round of the same number, minus one: where V8
 * compiles or collects in a round or two, the sum follows those rounds and the median does not.
 */
function medianRoundVsHandSet(r: PathInstructions): number {
  const own = (round: PathInstructions['rounds'][number], v: Variant) =>
    round[v].total - round[v].compiling - round[v].collecting;
  return median(r.rounds.map((round) => own(round, 'snowkey') / own(round, 'hand-set') - 1));
}

/** The instruction counts: per row for each variant, and snowkey against the baselines. */
export function instructionsTable(results: readonly PathInstructions[]): string {
  const kilo = (n: number) => `${(n / 1000).toFixed(1)}k`;
  const head = ['database', 'adapter', 'write path', 'autoincrement', 'hand-set', 'snowkey', 'vs hand-set'];
  return table(
    [...head, 'range over rounds', 'median round', 'all instructions', 'vs autoincrement'],
    results.map((r) => [
      DATABASE_NAME[r.dialect],
      r.adapter,
      r.path,
      kilo(r.perRow.autoincrement),
      kilo(r.perRow['hand-set']),
      kilo(r.perRow.snowkey),
      r.sameStatements ? pct(r.vsHandSet) : `${pct(r.vsHandSet)} (other SQL)`,
      `${pct(r.vsHandSetRange[0])} .. ${pct(r.vsHandSetRange[1])}`,
      pct(medianRoundVsHandSet(r)),
      pct(r.vsHandSetAll),
      pct(r.vsAutoincrement),
    ]),
    'lllrrrrrrrr',
  );
}

/** The goal lines of the instruction counts: which same-SQL paths are within 3% of hand-set ids. */
export function instructionsGoal(results: readonly PathInstructions[]): string[] {
  const same = results.filter((r) => r.sameStatements);
  const verdict = (heading: string, ratio: (r: PathInstructions) => number) => [
    `${heading}: ${same.filter((r) => ratio(r) <= 0.03).length} of ${same.length} write paths`,
    ...same
      .filter((r) => ratio(r) > 0.03)
      .map((r) => `  above: ${DATABASE_NAME[r.dialect]} ${r.adapter} ${r.path} ${pct(ratio(r))}`),
  ];
  return [
    ...verdict(
      'snowkey within 3% of hand-set ids (instructions, compilers and garbage collector left out)',
      (r) => r.vsHandSet,
    ),
    ...verdict('by the median round instead of the sum', medianRoundVsHandSet),
  ];
}
