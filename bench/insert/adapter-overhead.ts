import { type ChildProcess, fork } from 'node:child_process';
import { median, quantile } from '../measure.js';
import {
  loadAdapterBench,
  resetAdapterTables,
  VARIANT_TABLE,
  VARIANTS,
  type Variant,
} from './adapters/adapter-bench.js';
import type { BenchDatabase } from './bench-database.js';

/** One write's wall seconds and the child's CPU seconds during it. */
export interface WriteTimes {
  readonly wall: number;
  readonly cpu: number;
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

/** The child's next message, which must be of `type` (one request is ever outstanding). */
function reply(child: ChildProcess, label: string, type: string): Promise<WriteTimes> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null, signal: string | null) =>
      reject(new Error(`the ${label} child exited (${signal ?? code}) with no reply`));
    child.once('exit', exited);
    child.once('message', (message: WriteTimes & { type: string; error?: string }) => {
      child.off('exit', exited);
      if (message.type === 'failed') reject(new Error(`clock child failed: ${message.error}`));
      else if (message.type !== type)
        reject(new Error(`clock child answered ${message.type}, expected ${type}`));
      else resolve(message);
    });
  });
}

/** clock-child.ts for one adapter in one variant, under tsx's ESM hook only (its CJS hook would tax every driver `require()`). */
async function startVariantProcess(db: BenchDatabase, adapter: string, variant: Variant) {
  const { dialect, name, url, filename, connection } = db.database;
  const child = fork(
    new URL('./clock-child.ts', import.meta.url).pathname,
    [variant, adapter, JSON.stringify({ dialect, name, url, filename, connection })],
    { execArgv: ['--import', 'tsx/esm'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const label = `${adapter} ${variant}`;
  await reply(child, label, 'ready');
  return {
    write(path: number, rows: number, offset: number) {
      child.send({ type: 'write', path, rows, offset });
      return reply(child, label, 'written');
    },
    async close() {
      if (!child.connected) return; // it exited, and the call that met it reported why
      child.send({ type: 'close' });
      await reply(child, label, 'closed');
    },
  };
}

/** Every write path of `adapters` on `db`, the variants in processes of their own, interleaved in rotating order. */
export async function adapterOverhead(
  db: BenchDatabase,
  adapters: readonly string[],
  options: { bulkRows: number; singleRows: number; rounds: number; progress: (line: string) => void },
): Promise<PathResult[]> {
  await resetAdapterTables(db);
  const results: PathResult[] = [];
  const written = new Map<Variant, number>(VARIANTS.map((v) => [v, 0]));
  let offset = 0;
  for (const name of adapters) {
    const adapter = await loadAdapterBench(name);
    const processes = new Map<Variant, Awaited<ReturnType<typeof startVariantProcess>>>();
    try {
      for (const variant of VARIANTS) processes.set(variant, await startVariantProcess(db, name, variant));
      for (const [index, path] of adapter.paths.entries()) {
        if (path.dialects && !path.dialects.includes(db.dialect)) continue;
        const count = path.rowsPerCall === 1 ? options.singleRows : options.bulkRows;
        const rounds: Record<Variant, WriteTimes>[] = [];
        for (let round = -1; round < options.rounds; round++) {
          const measured = {} as Record<Variant, WriteTimes>;
          for (const variant of VARIANTS.map((_, i) => VARIANTS[(i + round + 1) % VARIANTS.length]!)) {
            offset += 1_000_000;
            const { wall, cpu } = await processes.get(variant)!.write(index, count, offset);
            measured[variant] = { wall, cpu };
            written.set(variant, written.get(variant)! + count);
            const when = round < 0 ? 'warm-up' : `round ${round + 1}/${options.rounds}`;
            options.progress(`${db.dialect} ${adapter.name} ${path.name} ${variant} ${when}`);
          }
          if (round >= 0) rounds.push(measured);
        }
        const wall = (v: Variant) => rounds.map((r) => r[v].wall);
        const paired = (base: Variant) => rounds.map((r) => r.snowkey.wall / r[base].wall - 1);
        const vsHand = paired('hand-set');
        results.push({
          dialect: db.dialect,
          adapter: adapter.name,
          path: path.name,
          rowsPerSecond: Object.fromEntries(VARIANTS.map((v) => [v, count / median(wall(v))])) as Record<
            Variant,
            number
          >,
          vsHandSet: median(vsHand),
          vsHandSetSpread: [quantile(vsHand, 0.25), quantile(vsHand, 0.75)],
          addedCpu: median(rounds.map((r) => (r.snowkey.cpu - r['hand-set'].cpu) / r['hand-set'].wall)),
          sameStatements: path.sameStatements !== false,
          vsAutoincrement: median(paired('autoincrement')),
          rounds,
        });
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
