// Run by instructions.bench.ts under `valgrind --tool=callgrind`, never on its own: opens one
// bench database and each adapter on it in one variant (autoincrement, hand-set or snowkey; one
// process per variant, so no variant's objects reach the JIT's view of another's code, as in an
// application, which uses one), writes through each write path a warm-up round and then the
// measured rounds, and asks callgrind (through vgdb) to dump its instruction count after each
// write. The dump's name says what ran: `<adapter>.<path index>.<round>` (round -1 is the warm-up).
// A full garbage collection before each write, dumped apart as `gc`, starts every write from the
// same clean heap, so each pays for the collections its own garbage causes.
//   node --single-threaded --expose-gc --conditions=dev-source --import tsx \
//     bench/insert/instructions-child.ts <dialect> <variant> <adapter,adapter...> <rounds> <bulk rows> <single rows>
import { execFileSync } from 'node:child_process';
import { Snowflake } from '@snowkey/core';
import { resetAdapterTables } from './adapter-tables.js';
import { VARIANT_TABLE, type Variant } from './adapters/adapter-bench.js';
import { loadAdapterBench } from './adapters/index.js';
import { type BenchDialect, openBenchDatabase } from './bench-database.js';
import { benchRows } from './payload.js';

const [dialect, variantArg, adapterList, roundsArg, bulkArg, singleArg] = process.argv.slice(2);
const variant = variantArg as Variant;
const rounds = Number(roundsArg);
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');

/** Ends callgrind's current count here and starts the next: the instructions since the last dump. */
function dump(label: string): void {
  execFileSync('vgdb', [`--pid=${process.pid}`, 'dump', label], { stdio: 'ignore' });
}

const db = await openBenchDatabase(dialect as BenchDialect);
try {
  await resetAdapterTables(db);
  let offset = 0;
  let written = 0;
  for (const name of adapterList!.split(',')) {
    const adapter = await loadAdapterBench(name);
    const session = await adapter.open(db, variant, new Snowflake({ workerId: 4 }));
    for (const [index, path] of adapter.paths.entries()) {
      if (path.dialects && !path.dialects.includes(dialect as BenchDialect)) continue;
      const count = path.rowsPerCall === 1 ? Number(singleArg) : Number(bulkArg);
      for (let round = -1; round < rounds; round++) {
        offset += 1_000_000;
        const rows = benchRows(count, offset);
        collect();
        dump('gc');
        await session.write(path, rows);
        dump(`${name}.${index}.${round}`);
        written += rows.length;
      }
    }
    await session.close();
  }
  const stored = await db.countRows(VARIANT_TABLE[variant]);
  if (stored !== written) throw new Error(`${variant}: ${stored} rows stored, ${written} written`);
} finally {
  await db.close();
}
