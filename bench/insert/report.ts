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
      x(s.slices.at(-1)! / s.slices[0]!),
    ]),
  );
  return table([...head, 'last / first'], rows, 'llrrrrrr');
}

/** Every adapter's write paths: rows/s of the three variants and the paired ratios. */
export function overheadTable(results: readonly PathResult[]): string {
  const head = ['database', 'ORM', 'write path', 'autoincrement rows/s', 'hand-set rows/s', 'snowkey rows/s'];
  const ratios = ['vs hand-set, clock', 'vs hand-set, added CPU', 'vs autoincrement, clock'];
  const rows = results.map((r) => [
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
  return table([...head, ...ratios], rows, 'lllrrrrrr');
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
/** Snowkey's sum over the rounds against hand-set ids', minus one. */
export const snowkeyVs = (r: PathInstructions) => sumOf(r, 'snowkey', own) / sumOf(r, 'hand-set', own) - 1;
/** The median round: where V8 compiles or collects in a round or two, the sum follows them and this does not. */
const medianRound = (r: PathInstructions) =>
  median(r.rounds.map((round) => own(round.snowkey) / own(round['hand-set']) - 1));

/** Instructions per row of each variant, and snowkey against hand-set ids by the sum and by the median round. */
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
    pct(medianRound(r)),
  ]);
  return table([...head, 'median round'], rows, 'lllrrrrr');
}
