import { resetAdapterTables } from './adapter-tables.js';
import {
  type AdapterBench,
  VARIANT_TABLE,
  VARIANTS,
  type Variant,
  type WritePath,
} from './adapters/adapter-bench.js';
import { loadAdapterBench } from './adapters/index.js';
import type { BenchDatabase } from './bench-database.js';
import { median, quantile } from './stats.js';
import { startVariantProcess, type VariantProcess, type WriteTimes } from './variant-process.js';

export interface OverheadOptions {
  /** Rows per measured run of a bulk path. */
  readonly bulkRows: number;
  /** Rows per measured run of a one-row path (each a round trip of its own). */
  readonly singleRows: number;
  /** Measured rounds; one warm-up round runs first and is not counted. */
  readonly rounds: number;
  readonly onRun?: (adapter: string, path: string, variant: Variant, round: number) => void;
}

/** One adapter's write path on one database: rows/s per variant and the paired ratios. */
export interface PathResult {
  readonly dialect: BenchDatabase['dialect'];
  readonly adapter: string;
  readonly path: string;
  /** Median rows/s over the rounds, per variant. */
  readonly rowsPerSecond: Readonly<Record<Variant, number>>;
  /** Median over rounds of (snowkey time / hand-set time) - 1: what the adapter costs, by the clock. */
  readonly vsHandSet: number;
  /** The middle half of those paired ratios (first and third quartile): how far the clock can be trusted. */
  readonly vsHandSetSpread: readonly [q1: number, q3: number];
  /**
   * Median over rounds of (this process's CPU time with snowkey - with hand-set ids) / hand-set wall
   * time: the work the adapter adds to an insert, as a share of the insert's time. The database's
   * work is not in it, which is right where both variants send the same statements (all paths but
   * those with `sameStatements: false`); a busy moment of the machine stretches the wall time of a
   * run but hardly its CPU time, so this figure is far steadier than {@link vsHandSet}.
   */
  readonly addedCpu: number;
  /** False where hand-set ids make the ORM send other statements than snowkey does. */
  readonly sameStatements: boolean;
  /** Median over rounds of (snowkey time / autoincrement time) - 1. */
  readonly vsAutoincrement: number;
  /** Every measured round: wall and CPU seconds per variant, in round order. */
  readonly rounds: readonly Readonly<Record<Variant, WriteTimes>>[];
}

/**
 * Every write path of every adapter on `db` (by their `--adapters` names), its three variants
 * interleaved round by round (the order rotates each round), so a busy moment of the machine falls
 * on all three alike. Each variant runs in a Node process of its own, as an application runs one
 * ORM setup: in one process, what V8 learned from one variant's objects shaped the code the others
 * ran. The ratios are paired: each round's snowkey time over the same round's baseline time, then
 * the median.
 */
export async function adapterOverhead(
  db: BenchDatabase,
  adapters: readonly string[],
  options: OverheadOptions,
): Promise<PathResult[]> {
  await resetAdapterTables(db);
  const results: PathResult[] = [];
  const written = new Map<Variant, number>(VARIANTS.map((v) => [v, 0]));
  const count = (variant: Variant, rows: number) => written.set(variant, written.get(variant)! + rows);
  let offset = 0;
  for (const name of adapters) {
    const adapter = await loadAdapterBench(name);
    const processes = new Map<Variant, VariantProcess>();
    try {
      for (const variant of VARIANTS) processes.set(variant, await startVariantProcess(db, name, variant));
      for (const [index, path] of adapter.paths.entries()) {
        if (path.dialects && !path.dialects.includes(db.dialect)) continue;
        results.push(
          await measurePath(db, adapter, path, index, processes, options, () => (offset += 1_000_000), count),
        );
      }
    } finally {
      for (const child of processes.values()) await child.close();
    }
  }
  for (const [variant, rows] of written) {
    const stored = await db.countRows(VARIANT_TABLE[variant]);
    if (stored !== rows)
      throw new Error(`${variant}: ${stored} rows stored in ${VARIANT_TABLE[variant]}, ${rows} written`);
  }
  return results;
}

async function measurePath(
  db: BenchDatabase,
  adapter: AdapterBench,
  path: WritePath,
  index: number,
  processes: ReadonlyMap<Variant, VariantProcess>,
  options: OverheadOptions,
  nextOffset: () => number,
  record: (variant: Variant, rows: number) => void,
): Promise<PathResult> {
  const count = path.rowsPerCall === 1 ? options.singleRows : options.bulkRows;
  const rounds: Record<Variant, WriteTimes>[] = [];
  for (let round = -1; round < options.rounds; round++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round + 1) % VARIANTS.length]!);
    const measured = {} as Record<Variant, WriteTimes>;
    for (const variant of order) {
      measured[variant] = await processes.get(variant)!.write(index, count, nextOffset());
      record(variant, count);
      options.onRun?.(adapter.name, path.name, variant, round);
    }
    if (round >= 0) rounds.push(measured);
  }
  const t = (v: Variant) => rounds.map((r) => r[v].wall);
  const pairedWall = (base: Variant) => rounds.map((r) => r.snowkey.wall / r[base].wall - 1);
  const vsHand = pairedWall('hand-set');
  return {
    dialect: db.dialect,
    adapter: adapter.name,
    path: path.name,
    rowsPerSecond: Object.fromEntries(VARIANTS.map((v) => [v, count / median(t(v))])) as Record<
      Variant,
      number
    >,
    vsHandSet: median(vsHand),
    vsHandSetSpread: [quantile(vsHand, 0.25), quantile(vsHand, 0.75)],
    addedCpu: median(rounds.map((r) => (r.snowkey.cpu - r['hand-set'].cpu) / r['hand-set'].wall)),
    sameStatements: path.sameStatements !== false,
    vsAutoincrement: median(pairedWall('autoincrement')),
    rounds,
  };
}
