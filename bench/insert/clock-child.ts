// Started by variant-process.ts: one adapter in one variant; times each write the parent asks for.
import { Snowflake } from '@snowkey/core';
import type { Variant } from './adapters/adapter-bench.js';
import { loadAdapterBench } from './adapters/index.js';
import type { BenchDatabase } from './bench-database.js';
import { benchRows } from './payload.js';
import type { ChildReply, ChildRequest } from './variant-process.js';

const [variant, adapterName, databaseJson] = process.argv.slice(2);
const database = JSON.parse(databaseJson!) as BenchDatabase['database'];
const db = { dialect: database.dialect, database } as BenchDatabase;
const adapter = await loadAdapterBench(adapterName!);
const session = await adapter.open(db, variant as Variant, new Snowflake({ workerId: 2 }));

const reply = (message: ChildReply) => process.send!(message);
process.on('disconnect', () => process.exit(0));

process.on('message', (message: ChildRequest) => {
  void (async () => {
    try {
      if (message.type === 'close') {
        await session.close();
        reply({ type: 'closed' });
        process.disconnect();
        return;
      }
      const path = adapter.paths[message.path]!;
      const rows = benchRows(message.rows, message.offset);
      const cpu = process.cpuUsage();
      const start = performance.now();
      await session.write(path, rows);
      const wall = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu);
      reply({ type: 'written', wall, cpu: (used.user + used.system) / 1e6 });
    } catch (err) {
      reply({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  })();
});
reply({ type: 'ready' });
