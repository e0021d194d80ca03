// Started by adapter-overhead.ts: one adapter in one variant; times each write the parent asks for.
import { Snowflake } from '@snowkey/core';
import { loadAdapterBench, type Variant } from './adapters/adapter-bench.js';
import type { BenchDatabase } from './bench-database.js';
import { benchRows } from './tables.js';

const [variant, adapterName, databaseJson] = process.argv.slice(2);
const database = JSON.parse(databaseJson!) as BenchDatabase['database'];
const adapter = await loadAdapterBench(adapterName!);
const db = { dialect: database.dialect, database } as BenchDatabase;
const session = await adapter.open(db, variant as Variant, new Snowflake({ workerId: 2 }));

const reply = (message: object) => process.send!(message);
process.on('disconnect', () => process.exit(0));
process.on(
  'message',
  async (message: { type: 'write' | 'close'; path: number; rows: number; offset: number }) => {
    try {
      if (message.type === 'close') {
        await session.close();
        reply({ type: 'closed' });
        process.disconnect();
        return;
      }
      const rows = benchRows(message.rows, message.offset);
      const cpu = process.cpuUsage();
      const start = performance.now();
      await session.write(adapter.paths[message.path]!, rows);
      const wall = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu);
      reply({ type: 'written', wall, cpu: (used.user + used.system) / 1e6 });
    } catch (err) {
      reply({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  },
);
reply({ type: 'ready' });
