// Started by adapter-overhead.ts: one adapter in one variant; times each write the parent asks for.
import { Snowflake } from '@snowkey/core';
import { benchRows, loadAdapter, type Variant } from './adapters/adapter-bench.js';

const [variant, adapter, database] = process.argv.slice(2) as [Variant, string, string];
const bench = await loadAdapter(adapter);
const session = await bench.open(JSON.parse(database), variant, new Snowflake({ workerId: 2 }));
process.on('disconnect', () => void session.close().then(() => process.exit(0)));
process.on('message', async ({ path, rows, offset }: { path: number; rows: number; offset: number }) => {
  try {
    const written = benchRows(rows, offset);
    const cpu = process.cpuUsage();
    const start = performance.now();
    await session.writes[path]!(written);
    const wall = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    process.send!({ wall, cpu: (used.user + used.system) / 1e6 });
  } catch (err) {
    process.send!({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
process.send!({ ready: true });
