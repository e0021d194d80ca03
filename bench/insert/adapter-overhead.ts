import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { TestDatabase } from '@snowkey/test-harness';
import { median } from '../measure.js';
import { checkStored, createTables, loadAdapter, VARIANTS, type Variant } from './adapters/adapter-bench.js';
import { progress } from './cli-options.js';

/** One write's wall seconds and the child's CPU seconds during it. */
type Times = { readonly wall: number; readonly cpu: number };

/** One write path on one database: median rows/s per variant and medians of the paired ratios. */
export type PathResult = Awaited<ReturnType<typeof adapterOverhead>>[number];

/** clock-child.ts for one adapter in one variant, under tsx's ESM hook only (its CJS hook would tax every driver `require()`). */
async function startChild(db: TestDatabase, adapter: string, variant: Variant) {
  const path = new URL('./clock-child.ts', import.meta.url).pathname;
  const child = fork(path, [variant, adapter, JSON.stringify(db)], { execArgv: ['--import', 'tsx/esm'] });
  /** Sends `message` (if any) and resolves to the child's reply; its exit before one is an error. */
  const ask = (message?: object) =>
    new Promise<Times>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`${adapter} ${variant} exited (${code})`));
      child.once('exit', exited).once('message', (m: Times & { error?: string }) => {
        child.off('exit', exited);
        if (m.error) reject(new Error(`${adapter} ${variant}: ${m.error}`));
        else resolve(m);
      });
      if (message) child.send(message);
    });
  await ask();
  return {
    write: (path: number, rows: number, offset: number) => ask({ path, rows, offset }),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.disconnect();
      await once(child, 'exit');
    },
  };
}

type Sizes = { bulkRows: number; singleRows: number; rounds: number };

/** Every write path of `adapters` on `db`, the variants in processes of their own, interleaved in rotating order. */
export async function adapterOverhead(db: TestDatabase, adapters: readonly string[], options: Sizes) {
  await createTables(db);
  const results = [];
  const written = { autoincrement: 0, 'hand-set': 0, snowkey: 0 };
  let offset = 0;
  for (const name of adapters) {
    const adapter = await loadAdapter(name);
    const children = await Promise.all(VARIANTS.map((v) => startChild(db, name, v)));
    try {
      for (const [index, path] of adapter.paths.entries()) {
        if (path.dialects && !path.dialects.includes(db.dialect)) continue;
        const count = path.single ? options.singleRows : options.bulkRows;
        const rounds: Record<Variant, Times>[] = [];
        for (let round = -1; round < options.rounds; round++) {
          const times = {} as Record<Variant, Times>;
          for (let i = 0; i < VARIANTS.length; i++) {
            const v = (i + round + 1) % VARIANTS.length;
            offset += 1_000_000;
            times[VARIANTS[v]!] = await children[v]!.write(index, count, offset);
            written[VARIANTS[v]!] += count;
          }
          if (round >= 0) rounds.push(times);
          progress(
            `${db.dialect} ${adapter.name} ${path.name} ${round < 0 ? 'warm-up' : `round ${round + 1}`}`,
          );
        }
        // snowkey's time / the baseline's - 1, round by round
        const paired = (base: Variant) => median(rounds.map((r) => r.snowkey.wall / r[base].wall - 1));
        results.push({
          dialect: db.dialect,
          adapter: adapter.name,
          path: path.name,
          rowsPerSecond: Object.fromEntries(
            VARIANTS.map((v) => [v, count / median(rounds.map((r) => r[v].wall))]),
          ) as Record<Variant, number>,
          vsHandSet: paired('hand-set'),
          // The client CPU snowkey adds over hand-set ids, as a share of the hand-set wall time
          // (steadier than the clock on a busy machine).
          addedCpu: median(rounds.map((r) => (r.snowkey.cpu - r['hand-set'].cpu) / r['hand-set'].wall)),
          otherSql: path.otherSql === true,
          vsAutoincrement: paired('autoincrement'),
          rounds,
        });
      }
    } finally {
      for (const child of children) await child.close();
    }
  }
  for (const v of VARIANTS) await checkStored(db, v, written[v]);
  return results;
}
