// Runs one adapter's write path in one variant for a while, for `node --cpu-prof`: where the time
// of a snowkey insert goes, ours against the ORM's. Not part of the benchmark's report.
//   node --cpu-prof --cpu-prof-dir=.tmp/prof --conditions=dev-source --import tsx \
//     bench/insert/profile-adapter.ts knex snowkey sqlite 50000
import { Snowflake } from '@snowkey/core';
import { resetAdapterTables } from './adapter-tables.js';
import type { BenchRow, Variant } from './adapters/adapter-bench.js';
import { ADAPTER_BENCHES } from './adapters/index.js';
import { type BenchDialect, openBenchDatabase } from './bench-database.js';
import { payloadRow } from './payload.js';

const [adapterName = 'knex', variant = 'snowkey', dialect = 'sqlite', rowsArg = '50000', pathIndex = '0'] =
  process.argv.slice(2);
const adapter = ADAPTER_BENCHES[adapterName];
if (!adapter) throw new Error(`unknown adapter ${adapterName}: ${Object.keys(ADAPTER_BENCHES).join(', ')}`);
const db = await openBenchDatabase(dialect as BenchDialect);
try {
  await resetAdapterTables(db);
  const session = await adapter.open(db, variant as Variant, new Snowflake({ workerId: 3 }));
  const path = adapter.paths[Number(pathIndex)]!;
  const rows: BenchRow[] = Array.from({ length: Number(rowsArg) }, (_, i) => {
    const [ownerId, name, score, createdAt] = payloadRow(i);
    return { ownerId, name, score, createdAt };
  });
  const start = performance.now();
  await session.write(path, rows);
  const ms = performance.now() - start;
  console.log(
    `${adapter.name} ${path.name} ${variant} on ${dialect}: ${rows.length} rows in ${ms.toFixed(0)} ms`,
  );
  await session.close();
} finally {
  await db.close();
}
