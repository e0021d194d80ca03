// Runs one adapter's write path in one variant and profiles the CPU over the measured writes only
// (after a warm-up write, so module loading and set-up are left out): where the time of an insert
// goes, ours against the ORM's. Writes the .cpuprofile (Chrome DevTools opens it) and prints the
// self time per owner (profile-share.ts). Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/profile-adapter.ts \
//     <adapter> <variant> <dialect> [rows] [path index] [out.cpuprofile]
//   node --conditions=dev-source --import tsx bench/insert/profile-adapter.ts knex snowkey sqlite 100000
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Snowflake } from '@snowkey/core';
import { resetAdapterTables } from './adapter-tables.js';
import { VARIANTS } from './adapters/adapter-bench.js';
import { ADAPTER_NAMES, loadAdapterBench } from './adapters/index.js';
import { BENCH_DIALECTS, openBenchDatabase } from './bench-database.js';
import { oneOf, positiveCount } from './cli-options.js';
import { benchRows } from './payload.js';
import { type CpuProfile, shareTable } from './profile-share.js';

const [
  adapterArg = 'knex',
  variantArg = 'snowkey',
  dialectArg = 'sqlite',
  rowsArg = '50000',
  pathIndex = '0',
  outArg,
] = process.argv.slice(2);
const adapterName = oneOf('adapter', ADAPTER_NAMES)(adapterArg);
const variant = oneOf('variant', VARIANTS)(variantArg);
const dialect = oneOf('dialect', BENCH_DIALECTS)(dialectArg);
const count = positiveCount('rows')(rowsArg);
const out = outArg ?? `.tmp/${adapterName}-${variant}-${dialect}.cpuprofile`;
const adapter = await loadAdapterBench(adapterName);
const pathIndexes = adapter.paths.map((_, i) => String(i));
const path = adapter.paths[Number(oneOf('path index', pathIndexes)(pathIndex))]!;
const db = await openBenchDatabase(dialect);
try {
  await resetAdapterTables(db);
  const session = await adapter.open(db, variant, new Snowflake({ workerId: 3 }));
  await session.write(path, benchRows(Math.min(count, 20_000), 10_000_000)); // warm-up, not profiled
  const rows = benchRows(count, 0);
  const inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
  const start = performance.now();
  await session.write(path, rows);
  const ms = performance.now() - start;
  const { profile } = await inspector.post('Profiler.stop');
  inspector.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  console.log(
    `${adapter.name} ${path.name} ${variant} on ${dialect}: ${rows.length} rows in ${ms.toFixed(0)} ms; profile in ${out}`,
  );
  console.log(shareTable(profile as unknown as CpuProfile));
  await session.close();
} finally {
  await db.close();
}
