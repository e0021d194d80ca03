import { DATABASE_NAME, type Dialect } from '../fresh-database.js';
import { median, table } from '../measure.js';
import type { PathResult } from './adapter-overhead.js';
import type { Variant } from './adapters/adapter-bench.js';
import type { DialectLoads } from './raw-load.js';

const k = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : `${Math.round(n)}`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;

/** The raw loads: rows/s, the ratio to autoincrement, sizes, and how the rate holds up. */
export function loadsTable(loads: readonly DialectLoads[]): string {
  const head = [
    'database',
    'key',
    'rows/s',
    'vs autoincrement',
    'table',
    'other indexes',
    'size vs autoincrement',
  ];
  const rows = loads.flatMap(({ dialect, kinds }) =>
    kinds.map((s) => [
      DATABASE_NAME[dialect],
      s.kind,
      k(s.total),
      x(s.vsAutoincrement),
      mb(s.bytes.data),
      mb(s.bytes.index),
      x((s.bytes.data + s.bytes.index) / (kinds[0]!.bytes.data + kinds[0]!.bytes.index)),
      k(s.slices[0]!),
      k(s.slices.at(-1)!),
      x(s.slices.at(-1)! / s.slices[0]!),
    ]),
  );
  return table([...head, 'first 10%', 'last 10%', 'last / first'], rows, 'llrrrrrrrr');
}

/** Every adapter's write paths: rows/s of the three variants and the paired ratios. */
export function overheadTable(results: readonly PathResult[]): string {
  const head = ['database', 'ORM', 'write path', 'autoincrement rows/s', 'hand-set rows/s', 'snowkey rows/s'];
  const ratios = [
    'vs hand-set, clock',
    'middle half of rounds',
    'vs hand-set, added CPU',
    'vs autoincrement, clock',
  ];
  const rows = results.map((r) => [
    DATABASE_NAME[r.dialect],
    r.adapter,
    r.path,
    k(r.rowsPerSecond.autoincrement),
    k(r.rowsPerSecond['hand-set']),
    k(r.rowsPerSecond.snowkey),
    pct(r.vsHandSet),
    `${pct(r.vsHandSetSpread[0])} .. ${pct(r.vsHandSetSpread[1])}`,
    r.otherSql ? 'other SQL' : pct(r.addedCpu),
    pct(r.vsAutoincrement),
  ]);
  return table([...head, ...ratios], rows, 'lllrrrrrrr');
}

/** One round of one variant under callgrind: all its instructions, and those of V8's compilers and collector. */
export type RoundCount = { readonly total: number; readonly compiling: number; readonly collecting: number };

/** One write path on one database under callgrind, its rounds paired across the variants. */
export interface PathInstructions {
  readonly dialect: Dialect;
  readonly adapter: string;
  readonly path: string;
  readonly rowsPerWrite: number;
  readonly otherSql: boolean;
  readonly rounds: readonly Readonly<Record<Variant, RoundCount>>[];
}

/** A round's instructions but V8's compilers and collector (their work depends on what ran before). */
const own = (c: RoundCount) => c.total - c.compiling - c.collecting;
const sumOf = (r: PathInstructions, v: Variant, f: (c: RoundCount) => number) =>
  r.rounds.reduce((s, round) => s + f(round[v]), 0);
/** Snowkey's sum over the rounds against a baseline's, minus one. */
export const snowkeyVs = (r: PathInstructions, base: Variant = 'hand-set', count = own) =>
  sumOf(r, 'snowkey', count) / sumOf(r, base, count) - 1;
const byRound = (r: PathInstructions) =>
  r.rounds.map((round) => own(round.snowkey) / own(round['hand-set']) - 1);
/** The median round: where V8 compiles or collects in a round or two, the sum follows them and this does not. */
const medianRound = (r: PathInstructions) => median(byRound(r));

/** Instructions per row of each variant, and snowkey against the baselines. */
export function instructionsTable(results: readonly PathInstructions[]): string {
  const kilo = (n: number) => `${(n / 1000).toFixed(1)}k`;
  const perRow = (r: PathInstructions, v: Variant) =>
    kilo(sumOf(r, v, own) / (r.rowsPerWrite * r.rounds.length));
  const head = ['database', 'adapter', 'write path', 'autoincrement', 'hand-set', 'snowkey', 'vs hand-set'];
  const rows = results.map((r) => [
    DATABASE_NAME[r.dialect],
    r.adapter,
    r.path,
    perRow(r, 'autoincrement'),
    perRow(r, 'hand-set'),
    perRow(r, 'snowkey'),
    `${pct(snowkeyVs(r))}${r.otherSql ? ' (other SQL)' : ''}`,
    `${pct(Math.min(...byRound(r)))} .. ${pct(Math.max(...byRound(r)))}`,
    pct(medianRound(r)),
    pct(snowkeyVs(r, 'hand-set', (c) => c.total)),
    pct(snowkeyVs(r, 'autoincrement')),
  ]);
  const tail = ['range over rounds', 'median round', 'all instructions', 'vs autoincrement'];
  return table([...head, ...tail], rows, 'lllrrrrrrrr');
}

/** Which write paths sending the same SQL both ways are within 3% of hand-set ids, by the sum and by the median round. */
export function instructionsGoal(results: readonly PathInstructions[]): string[] {
  const same = results.filter((r) => !r.otherSql);
  const verdict = (heading: string, ratio: (r: PathInstructions) => number) => [
    `${heading}: ${same.filter((r) => ratio(r) <= 0.03).length} of ${same.length} write paths`,
    ...same
      .filter((r) => ratio(r) > 0.03)
      .map((r) => `  above: ${DATABASE_NAME[r.dialect]} ${r.adapter} ${r.path} ${pct(ratio(r))}`),
  ];
  return [
    ...verdict(
      'snowkey within 3% of hand-set ids (instructions, compilers and garbage collector left out)',
      (r) => snowkeyVs(r),
    ),
    ...verdict('by the median round instead of the sum', medianRound),
  ];
}
