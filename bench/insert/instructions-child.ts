// Run by instructions.bench.ts under `valgrind --tool=callgrind`, never on its own: opens one
// bench database and each adapter on it in one variant (autoincrement, hand-set or snowkey; one
// process per variant, so no variant's objects reach the JIT's view of another's code, as in an
// application, which uses one), writes through each write path the warm-up rounds with callgrind's
// instrumentation off (so they cost a third of the time; it starts off too, with
// --instr-atstart=no, so loading the modules is not counted), then the measured rounds with it on,
// and asks callgrind (through vgdb) to dump its instruction count after each measured write. The
// dump's name says what ran: `<adapter>.<path index>.<round>`; the one before them, `warm-up`,
// holds the switch back on.
// No collection is forced between writes: a full collection clears the weak references V8's
// optimized code holds (the previous write's shapes), so every write ran deoptimized code and
// recompiled it (a forced gc() before each write made Knex's writes 25% dearer and left 34-134M
// instructions of compiling in every round). The collections each write's garbage causes fall
// where V8 puts them, so a variant is judged on the sum of its rounds, not on one.
//   node --single-threaded --import tsx/esm bench/insert/instructions-child.ts \
//     <dialect> <variant> <adapter,adapter...> <warm-up rounds> <rounds> <bulk rows> <single rows> \
//     <one-row warm-up rounds>
import { execFileSync } from 'node:child_process';
import { Snowflake } from '@snowkey/core';
import { resetAdapterTables } from './adapter-tables.js';
import { VARIANT_TABLE, type Variant, type WritePath } from './adapters/adapter-bench.js';
import { loadAdapterBench } from './adapters/index.js';
import { type BenchDialect, openBenchDatabase } from './bench-database.js';
import { benchRows } from './payload.js';

// Counted as published: snowkey's built dist/, never its source through tsx (whose __name()
// wrapper around every named closure the published code does not have).
if (!import.meta.resolve('@snowkey/core').includes('/dist/')) {
  throw new Error(
    'run without --conditions=dev-source, after pnpm build: the count is of the built packages',
  );
}

const [dialect, variantArg, adapterList, warmupArg, roundsArg, bulkArg, singleArg, singleWarmupArg] =
  process.argv.slice(2);
const variant = variantArg as Variant;
const warmup = Number(warmupArg);
const singleWarmup = Number(singleWarmupArg ?? warmupArg);
const rounds = Number(roundsArg);

/** Sends callgrind a monitor command (`dump <label>`, `instrumentation on|off`) through vgdb. */
function callgrind(...command: string[]): void {
  execFileSync('vgdb', [`--pid=${process.pid}`, ...command], { stdio: 'ignore' });
}

const db = await openBenchDatabase(dialect as BenchDialect);
try {
  await resetAdapterTables(db);
  let offset = 0;
  let written = 0;
  for (const name of adapterList!.split(',')) {
    const adapter = await loadAdapterBench(name);
    const session = await adapter.open(db, variant, new Snowflake({ workerId: 4 }));
    const write = async (path: WritePath, count: number) => {
      offset += 1_000_000;
      const rows = benchRows(count, offset);
      await session.write(path, rows);
      written += rows.length;
    };
    for (const [index, path] of adapter.paths.entries()) {
      if (path.dialects && !path.dialects.includes(dialect as BenchDialect)) continue;
      const count = path.rowsPerCall === 1 ? Number(singleArg) : Number(bulkArg);
      callgrind('instrumentation', 'off');
      const warmups = path.rowsPerCall === 1 ? singleWarmup : warmup;
      for (let round = 0; round < warmups; round++) await write(path, count);
      callgrind('instrumentation', 'on');
      callgrind('dump', 'warm-up');
      for (let round = 0; round < rounds; round++) {
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
