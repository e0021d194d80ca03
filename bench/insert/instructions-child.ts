// Run by instructions.bench.ts under callgrind, never on its own: each adapter in one variant on a bench
// database; per write path, the warm-up rounds with the count off, then the measured rounds, each followed
// by a dump (through vgdb) named `<adapter>.<path index>.<round>`; `warm-up` holds the switch back on.
// No collection is forced between writes: a full one clears the weak references V8's optimized code
// holds, and every write then ran deoptimized code and recompiled it (Knex's writes 25% dearer).
//   <dialect> <variant> <adapter,adapter...> <warm-up rounds> <rounds> <bulk rows> <single rows> <one-row warm-up rounds>
import { execFileSync } from 'node:child_process';
import { Snowflake } from '@snowkey/core';
import {
  loadAdapterBench,
  resetAdapterTables,
  VARIANT_TABLE,
  type Variant,
  type WritePath,
} from './adapters/adapter-bench.js';
import { type BenchDialect, openBenchDatabase } from './bench-database.js';
import { benchRows } from './tables.js';

if (!import.meta.resolve('@snowkey/core').includes('/dist/'))
  throw new Error(
    'run without --conditions=dev-source, after pnpm build: the count is of the built packages',
  );

const [dialect, variant, adapterList, ...counts] = process.argv.slice(2) as [BenchDialect, Variant, string];
const [warmup, rounds, bulkRows, singleRows, singleWarmup] = counts.map(Number) as number[];

/** Sends callgrind a monitor command (`dump <label>`, `instrumentation on|off`) through vgdb. */
const callgrind = (...command: string[]) =>
  execFileSync('vgdb', [`--pid=${process.pid}`, ...command], { stdio: 'ignore' });

const db = await openBenchDatabase(dialect);
try {
  await resetAdapterTables(db);
  let [offset, written] = [0, 0];
  for (const name of adapterList.split(',')) {
    const adapter = await loadAdapterBench(name);
    const session = await adapter.open(db, variant, new Snowflake({ workerId: 4 }));
    const write = async (path: WritePath, count: number) => {
      offset += 1_000_000;
      await session.write(path, benchRows(count, offset));
      written += count;
    };
    for (const [index, path] of adapter.paths.entries()) {
      if (path.dialects && !path.dialects.includes(dialect)) continue;
      const [count, warmups] =
        path.rowsPerCall === 1 ? [singleRows!, singleWarmup ?? warmup!] : [bulkRows!, warmup!];
      callgrind('instrumentation', 'off');
      for (let round = 0; round < warmups; round++) await write(path, count);
      callgrind('instrumentation', 'on');
      callgrind('dump', 'warm-up');
      for (let round = 0; round < rounds!; round++) {
        await write(path, count);
        callgrind('dump', `${name}.${index}.${round}`);
      }
    }
    await session.close();
  }
  const stored = await db.countRows(VARIANT_TABLE[variant]);
  if (stored !== written) throw new Error(`${variant}: ${stored} rows stored, ${written} written`);
} finally {
  await db.close();
}
