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
  readonly bulkRows: number;
  readonly singleRows: number;
  readonly rounds: number; // after one warm-up round
  readonly onRun?: (adapter: string, path: string, variant: Variant, round: number) => void;
}

/**
 * One write path on one database: median rows/s per variant; medians of the paired ratios (snowkey
 * time / baseline time - 1) and their quartiles; `addedCpu`: the client CPU snowkey adds over
 * hand-set ids, as a share of the hand-set wall time (steadier than the clock on a busy machine).
 */
export interface PathResult {
  readonly dialect: BenchDatabase['dialect'];
  readonly adapter: string;
  readonly path: string;
  readonly rowsPerSecond: Readonly<Record<Variant, number>>;
  readonly vsHandSet: number;
  readonly vsHandSetSpread: readonly [q1: number, q3: number];
  readonly addedCpu: number;
  readonly sameStatements: boolean;
  readonly vsAutoincrement: number;
  readonly rounds: readonly Readonly<Record<Variant, WriteTimes>>[];
}

/** Every write path of `adapters` on `db`, the variants in processes of their own, interleaved in rotating order. */
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
