import { Snowflake } from '@snowkey/core';
import { resetAdapterTables } from './adapter-tables.js';
import {
  type AdapterBench,
  type BenchRow,
  VARIANT_TABLE,
  VARIANTS,
  type Variant,
  type WritePath,
} from './adapters/adapter-bench.js';
import type { BenchDatabase } from './bench-database.js';
import { benchRows } from './payload.js';
import { median, quantile } from './stats.js';

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
  readonly rounds: readonly Readonly<Record<Variant, { readonly wall: number; readonly cpu: number }>>[];
}

/**
 * Every write path of every adapter on `db`, its three variants interleaved round by round (the
 * order rotates each round), so a busy moment of the machine falls on all three alike. The ratios
 * are paired: each round's snowkey time over the same round's baseline time, then the median.
 */
export async function adapterOverhead(
  db: BenchDatabase,
  adapters: readonly AdapterBench[],
  options: OverheadOptions,
): Promise<PathResult[]> {
  await resetAdapterTables(db);
  const results: PathResult[] = [];
  const written = new Map<Variant, number>(VARIANTS.map((v) => [v, 0]));
  const count = (variant: Variant, rows: number) => written.set(variant, written.get(variant)! + rows);
  let offset = 0;
  for (const adapter of adapters) {
    const generator = new Snowflake({ workerId: 2 });
    const sessions = new Map<Variant, Awaited<ReturnType<AdapterBench['open']>>>();
    try {
      for (const variant of VARIANTS) sessions.set(variant, await adapter.open(db, variant, generator));
      for (const path of adapter.paths.filter((p) => !p.dialects || p.dialects.includes(db.dialect))) {
        results.push(
          await measurePath(db, adapter, path, sessions, options, () => (offset += 1_000_000), count),
        );
      }
    } finally {
      for (const session of sessions.values()) await session.close();
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
  sessions: ReadonlyMap<Variant, { write(path: WritePath, rows: readonly BenchRow[]): Promise<void> }>,
  options: OverheadOptions,
  nextOffset: () => number,
  record: (variant: Variant, rows: number) => void,
): Promise<PathResult> {
  const count = path.rowsPerCall === 1 ? options.singleRows : options.bulkRows;
  const rounds: Record<Variant, { wall: number; cpu: number }>[] = [];
  for (let round = -1; round < options.rounds; round++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round + 1) % VARIANTS.length]!);
    const measured = {} as Record<Variant, { wall: number; cpu: number }>;
    for (const variant of order) {
      const rows = benchRows(count, nextOffset());
      const cpu = process.cpuUsage();
      const start = performance.now();
      await sessions.get(variant)!.write(path, rows);
      const wall = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu);
      measured[variant] = { wall, cpu: (used.user + used.system) / 1e6 };
      record(variant, rows.length);
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
