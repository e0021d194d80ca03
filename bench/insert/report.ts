import { markdownTable } from 'markdown-table';
import type { PathResult } from './adapter-overhead.js';
import type { Variant } from './adapters/adapter-bench.js';
import { type BenchDialect, DATABASE_NAME } from './bench-database.js';
import type { KeyKind } from './key-kinds.js';
import type { LoadResult } from './raw-load.js';
import { median } from './stats.js';

/** One key kind's loads on one database: medians over the rounds (the ratio paired round by round). */
export interface KindSummary {
  readonly kind: KeyKind;
  readonly slices: readonly number[];
  readonly total: number;
  readonly vsAutoincrement: number;
  readonly bytes: { readonly data: number; readonly index: number };
}

export interface DialectLoads {
  readonly dialect: BenchDialect;
  readonly kinds: readonly KindSummary[];
}

/** Summarises the rounds of one database (each round: every kind loaded once, interleaved). */
export function summariseLoads(
  dialect: BenchDialect,
  rounds: readonly (readonly LoadResult[])[],
): DialectLoads {
  const kinds = rounds[0]!.map((r) => r.kind);
  const of = (kind: KeyKind) => rounds.map((round) => round.find((r) => r.kind === kind)!);
  return {
    dialect,
    kinds: kinds.map((kind) => {
      const loads = of(kind);
      const auto = of('autoincrement');
      return {
        kind,
        slices: loads[0]!.slices.map((_, s) => median(loads.map((l) => l.slices[s]!))),
        total: median(loads.map((l) => l.total)),
        vsAutoincrement: auto.length ? median(loads.map((l, i) => l.total / auto[i]!.total)) : Number.NaN,
        bytes: {
          data: median(loads.map((l) => l.bytes.data)),
          index: median(loads.map((l) => l.bytes.index)),
        },
      };
    }),
  };
}

const k = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : `${Math.round(n)}`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const x = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '-');
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;

/** The raw loads: rows/s, the ratio to autoincrement, sizes, and how the rate holds up. */
export function loadsTable(loads: readonly DialectLoads[]): string {
  const rows = loads.flatMap(({ dialect, kinds }) => {
    const autoSize = kinds.find((s) => s.kind === 'autoincrement');
    return kinds.map((s) => {
      const size = s.bytes.data + s.bytes.index;
      return [
        DATABASE_NAME[dialect],
        s.kind,
        k(s.total),
        x(s.vsAutoincrement),
        mb(s.bytes.data),
        mb(s.bytes.index),
        autoSize ? x(size / (autoSize.bytes.data + autoSize.bytes.index)) : '-',
        k(s.slices[0]!),
        k(s.slices.at(-1)!),
        x(s.slices.at(-1)! / s.slices[0]!),
      ];
    });
  });
  return markdownTable(
    [
      [
        'database',
        'key',
        'rows/s',
        'vs autoincrement',
        'table',
        'other indexes',
        'size vs autoincrement',
        'first 10%',
        'last 10%',
        'last / first',
      ],
      ...rows,
    ],
    { align: ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] },
  );
}

/** Every adapter's write paths: rows/s of the three variants and the paired ratios. */
export function overheadTable(results: readonly PathResult[]): string {
  return markdownTable(
    [
      [
        'database',
        'ORM',
        'write path',
        'autoincrement rows/s',
        'hand-set rows/s',
        'snowkey rows/s',
        'vs hand-set, clock',
        'middle half of rounds',
        'vs hand-set, added CPU',
        'vs autoincrement, clock',
      ],
      ...results.map((r) => [
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
    ],
    { align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] },
  );
}

/** One write path on one database: instructions per row per variant, and snowkey against the baselines. */
export interface PathInstructions {
  readonly dialect: BenchDialect;
  readonly adapter: string;
  readonly path: string;
  readonly rowsPerWrite: number;
  /** Mean over the rounds (their sum over the rows), per variant: instructions per row, compilers and garbage collector left out. */
  readonly perRow: Readonly<Record<Variant, number>>;
  /** snowkey's sum over the rounds against hand-set's, minus one, compilers and garbage collector left out. */
  readonly vsHandSet: number;
  /** The lowest and highest of the same, round by round (round r of snowkey against round r of hand-set). */
  readonly vsHandSetRange: readonly [number, number];
  /** {@link vsHandSet} with every instruction counted, the compilers' and the garbage collector's too. */
  readonly vsHandSetAll: number;
  readonly vsAutoincrement: number;
  /** False where the ORM sends other statements for hand-set ids: there instructions do not compare. */
  readonly sameStatements: boolean;
  readonly rounds: readonly Readonly<
    Record<Variant, { total: number; compiling: number; collecting: number }>
  >[];
}

const kilo = (n: number) => `${(n / 1000).toFixed(1)}k`;

/**
 * The median over the rounds of snowkey's round against hand-set's round of the same number,
 * minus one, compilers and garbage collector left out: where V8 compiles or collects in a round or
 * two (work that, with the collector's helpers that have no collector's name, can move one round by
 * 30%), the sum follows those rounds and the median does not.
 */
export function medianRoundVsHandSet(r: Pick<PathInstructions, 'rounds'>): number {
  const counted = (round: PathInstructions['rounds'][number], v: Variant) =>
    round[v].total - round[v].compiling - round[v].collecting;
  return median(r.rounds.map((round) => counted(round, 'snowkey') / counted(round, 'hand-set') - 1));
}

/** The instruction counts: per row for each variant, and snowkey against the baselines. */
export function instructionsTable(results: readonly PathInstructions[]): string {
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
        'median round',
        'all instructions',
        'vs autoincrement',
      ],
      ...results.map((r) => [
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
    ],
    { align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] },
  );
}

/** The goal line of the instruction counts: which same-SQL paths are within 3% of hand-set ids. */
export function instructionsGoal(results: readonly PathInstructions[]): string[] {
  const within = results.filter((r) => r.sameStatements);
  /** The paths within 3% of hand-set ids by `ratio`, and a line for each above it. */
  const verdict = (heading: string, ratio: (r: PathInstructions) => number) => {
    const ratios = within.map(ratio);
    return [
      `${heading}: ${ratios.filter((x) => x <= 0.03).length} of ${within.length} write paths`,
      ...within.flatMap((r, i) =>
        ratios[i]! > 0.03
          ? [`  above: ${DATABASE_NAME[r.dialect]} ${r.adapter} ${r.path} ${pct(ratios[i]!)}`]
          : [],
      ),
    ];
  };
  return [
    ...verdict(
      'snowkey within 3% of hand-set ids (instructions, compilers and garbage collector left out)',
      (r) => r.vsHandSet,
    ),
    ...verdict('by the median round instead of the sum', medianRoundVsHandSet),
  ];
}
