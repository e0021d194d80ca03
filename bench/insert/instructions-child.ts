// Run by instructions.bench.ts under callgrind: one adapter in one variant on a fresh database; per write
// path, warm-up writes uncounted, then each measured write followed by a dump named `<adapter>.<path>.<round>`.
// No collection is forced between writes: a full one drops V8's optimized code (Knex's writes 25% dearer).
import { execFileSync } from 'node:child_process';
import { Snowflake } from '@snowkey/core';
import { createTestDatabase } from '@snowkey/test-harness';
import type { Dialect } from '../fresh-database.js';
import { benchRows, checkStored, createTables, loadAdapter, type Variant } from './adapters/adapter-bench.js';

if (!import.meta.resolve('@snowkey/core').includes('/dist/'))
  throw new Error('run after pnpm build, without --conditions=dev-source: the count is of dist/');

const [dialect, variant, name, ...counts] = process.argv.slice(2) as [Dialect, Variant, string];
const [warmup, rounds, bulkRows, singleRows, singleWarmup] = counts.map(Number) as number[];

/** Sends callgrind a monitor command (`dump <label>`, `instrumentation on|off`) through vgdb. */
const callgrind = (...command: string[]) =>
  execFileSync('vgdb', [`--pid=${process.pid}`, ...command], { stdio: 'ignore' });

const db = await createTestDatabase(dialect, 'bench_insert');
try {
  await createTables(db);
  const adapter = await loadAdapter(name);
  const session = await adapter.open(db, variant, new Snowflake({ workerId: 4 }));
  let [offset, written] = [0, 0];
  for (const [index, path] of adapter.paths.entries()) {
    if (path.dialects && !path.dialects.includes(dialect)) continue;
    const [rows, warmups] = path.single ? [singleRows!, singleWarmup!] : [bulkRows!, warmup!];
    const write = async () => {
      offset += 1_000_000;
      await session.writes[index]!(benchRows(rows, offset));
      written += rows;
    };
    callgrind('instrumentation', 'off');
    for (let round = 0; round < warmups; round++) await write();
    callgrind('instrumentation', 'on');
    callgrind('dump', 'warm-up');
    for (let round = 0; round < rounds!; round++) {
      await write();
      callgrind('dump', `${name}.${index}.${round}`);
    }
  }
  await session.close();
  await checkStored(db, variant, written);
} finally {
  await db.drop();
}
