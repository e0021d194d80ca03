// What Prisma's query extensions cost by themselves, against what snowkey adds on top: the same
// writes through a plain client with ids set by hand, through a client with a pass-through query
// extension (it only calls `query(args)`) and the same hand-set ids, through the plain client with
// hand-set ids on the model snowkey writes (its id is declared `@default(dbgenerated())`),
// through snowkey's extension on the plain client, the same behind the pass-through extension, and
// through snowkeyClient. The CPU time of this process per call (process.cpuUsage, which
// counts to the microsecond here; rounds of about half a second each), median over interleaved
// rounds, and each client's CPU over the plain client's in the same round (median and middle
// half); the database does the same work for all of them. Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/prisma-extension-cost.ts [sqlite|postgres|mysql] [rounds]
import { join } from 'node:path';
import { Snowflake } from '@snowkey/core';
import { snowkey, snowkeyClient } from '@snowkey/prisma';
import { markdownTable } from 'markdown-table';
import { ensurePrismaClients } from '../../scripts/prisma-generate-offline.mjs';
import { resetAdapterTables } from './adapter-tables.js';
import { type BenchRow, callerRows, type Variant } from './adapters/adapter-bench.js';
import { driverAdapter, passThroughExtension } from './adapters/prisma-bench.js';
import { BENCH_DIALECTS, openBenchDatabase } from './bench-database.js';
import { oneOf, positiveCount } from './cli-options.js';
import type { PrismaClient } from './generated/postgres/client/client.js';
import { benchRows } from './payload.js';
import { median, quantile } from './stats.js';

const [dialectArg = 'sqlite', roundsArg = '20'] = process.argv.slice(2);
const dialect = oneOf('dialect', BENCH_DIALECTS)(dialectArg);
const rounds = positiveCount('rounds')(roundsArg);
const db = await openBenchDatabase(dialect);
try {
  await resetAdapterTables(db);
  const dirs = ensurePrismaClients({
    packageDir: join(import.meta.dirname, '../../packages/prisma'),
    models: join(import.meta.dirname, 'prisma/rows.prisma'),
    outDir: join(import.meta.dirname, 'generated'),
    dialects: [db.dialect],
  });
  const { PrismaClient: Client } = (await import(join(dirs[db.dialect], 'client.ts'))) as {
    PrismaClient: new (options: object) => PrismaClient;
  };
  const base = new Client({ adapter: await driverAdapter(db) });
  await base.$connect();
  const generator = new Snowflake({ workerId: 6 });
  const passThrough = passThroughExtension(base);
  const sk = base.$extends(snowkey({ generator, models: { SnowRow: 'id' } }));
  const skBehind = passThrough.$extends(snowkey({ generator, models: { SnowRow: 'id' } }));
  const wrapped = snowkeyClient(base, { generator, models: { SnowRow: 'id' } });
  type Delegate = {
    create(args: { data: BenchRow; select: { id: true } }): Promise<unknown>;
    createMany(args: { data: BenchRow[] }): Promise<unknown>;
  };
  const clients: [name: string, delegate: Delegate, rows: Variant][] = [
    ['plain client, hand-set ids', base.handRow as unknown as Delegate, 'hand-set'],
    ['pass-through query extension, hand-set ids', passThrough.handRow as unknown as Delegate, 'hand-set'],
    // The snowkey model declares its id `@default(dbgenerated())` (so the id is optional in its types).
    ['plain client, hand-set ids, snowkey model', base.snowRow as unknown as Delegate, 'hand-set'],
    ['snowkey extension', sk.snowRow as unknown as Delegate, 'snowkey'],
    // Behind another query extension, snowkey's runs as a Prisma query extension itself.
    ['snowkey extension behind the pass-through one', skBehind.snowRow as unknown as Delegate, 'snowkey'],
    ['snowkeyClient wrapper', wrapped.snowRow as unknown as Delegate, 'snowkey'],
  ];
  let offset = 0;
  const payload = (count: number): BenchRow[] => {
    const rows = benchRows(count, offset);
    offset += count;
    return rows;
  };
  const calls = {
    'create(1 row), µs per call': {
      perRound: 1000,
      unit: 1e3,
      run: (d: Delegate, v: Variant) =>
        d.create({ data: callerRows(payload(1), v, generator)[0]!, select: { id: true } }),
    },
    'createMany(1000 rows), ms per call': {
      perRound: 3,
      unit: 1,
      run: (d: Delegate, v: Variant) => d.createMany({ data: callerRows(payload(1000), v, generator) }),
    },
  };
  const table: string[][] = [];
  const pct = (r: number) => `${r >= 0 ? '+' : ''}${(r * 100).toFixed(1)}%`;
  for (const [callName, call] of Object.entries(calls)) {
    const cpu = new Map<string, number[]>(clients.map(([n]) => [n, []]));
    for (let round = -2; round < rounds; round++) {
      for (let i = 0; i < clients.length; i++) {
        const [name, delegate, variant] = clients[(i + round + 2) % clients.length]!;
        const start = process.cpuUsage();
        for (let c = 0; c < call.perRound; c++) await call.run(delegate, variant);
        const used = process.cpuUsage(start);
        if (round >= 0) cpu.get(name)!.push((used.user + used.system) / 1000 / call.perRound);
      }
    }
    const plainRounds = cpu.get(clients[0]![0])!;
    for (const [name] of clients) {
      const byRound = cpu.get(name)!;
      const ratios = byRound.map((c, r) => c / plainRounds[r]! - 1);
      table.push([
        callName,
        name,
        (median(byRound) * call.unit).toFixed(call.unit === 1 ? 1 : 0),
        pct(median(ratios)),
        `${pct(quantile(ratios, 0.25))} .. ${pct(quantile(ratios, 0.75))}`,
      ]);
    }
  }
  console.log(
    `Prisma on ${dialect}: this process's CPU time per call, median of ${rounds} interleaved rounds\n`,
  );
  console.log(
    markdownTable(
      [['call', 'client', 'CPU per call', 'vs plain client', 'middle half of rounds'], ...table],
      {
        align: ['l', 'l', 'r', 'r', 'r'],
      },
    ),
  );
  await base.$disconnect();
} finally {
  await db.close();
}
