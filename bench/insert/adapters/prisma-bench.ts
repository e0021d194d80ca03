import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snowkey, snowkeyClient } from '@snowkey/prisma';
import { ensurePrismaClients } from '../../../scripts/prisma-generate-offline.mjs';
import type { BenchDatabase } from '../bench-database.js';
import type { PrismaClient } from '../generated/postgres/client/client.js';
import { type AdapterBench, type BenchRow, callerRows, inChunks } from './adapter-bench.js';

const here = dirname(fileURLToPath(import.meta.url));

const [createMany, createManyAndReturn, create] = [
  { name: 'createMany(1000 rows)', rowsPerCall: 1000 },
  { name: 'createManyAndReturn(1000 rows)', rowsPerCall: 1000, dialects: ['postgres', 'sqlite'] as const },
  { name: 'create(1 row)', rowsPerCall: 1 },
];

async function driverAdapter(db: BenchDatabase): Promise<object> {
  const c = db.database;
  if (db.dialect === 'postgres') {
    const { PrismaPg } = await import('@prisma/adapter-pg');
    return new PrismaPg({ connectionString: c.url, max: 2 });
  }
  if (db.dialect === 'mysql') {
    const { PrismaMariaDb } = await import('@prisma/adapter-mariadb');
    const { host, port, user, password, database } = c.connection;
    return new PrismaMariaDb({ host, port, user, password, database, connectionLimit: 2 });
  }
  const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
  return new PrismaBetterSqlite3({ url: c.url });
}

/** `base` with a query extension that only calls `query(args)`: Prisma's extension layer alone. */
function passThrough(base: PrismaClient) {
  return base.$extends({
    query: {
      $allModels: {
        create: ({ args, query }) => query(args),
        createMany: ({ args, query }) => query(args),
        createManyAndReturn: ({ args, query }) => query(args),
      },
    },
  });
}

/** How snowkey's client is made: extension, wrapper, behind or before a pass-through extension (the baselines get one too). */
type Attach = 'extension' | 'wrapper' | 'vs-pass-through' | 'before-pass-through';
const NAMES: Record<Attach, string> = {
  extension: 'Prisma',
  wrapper: 'Prisma (snowkeyClient)',
  'vs-pass-through': 'Prisma (extension vs a pass-through one)',
  'before-pass-through': 'Prisma (extension before a pass-through one)',
};

/** Prisma 7 with driver adapters: createMany, createManyAndReturn (not on MySQL), create; see `Attach`. */
export const prismaBench = (attach: Attach): AdapterBench => ({
  name: NAMES[attach],
  paths: [createMany!, createManyAndReturn!, create!],
  async open(db, variant, generator) {
    const dirs = ensurePrismaClients({
      packageDir: join(here, '../../../packages/prisma'),
      models: join(here, '../prisma/rows.prisma'),
      outDir: join(here, '../generated'),
      dialects: [db.dialect],
    });
    const { PrismaClient: Client } = (await import(join(dirs[db.dialect], 'client.ts'))) as {
      PrismaClient: new (options: object) => PrismaClient;
    };
    const base = new Client({ adapter: await driverAdapter(db) });
    await base.$connect();
    const options = { generator, models: { SnowRow: 'id' } };
    const withPassThrough = attach === 'vs-pass-through' || attach === 'before-pass-through';
    const client =
      variant !== 'snowkey'
        ? withPassThrough
          ? passThrough(base)
          : base
        : attach === 'wrapper'
          ? snowkeyClient(base, options)
          : attach === 'vs-pass-through'
            ? passThrough(base).$extends(snowkey(options))
            : attach === 'before-pass-through'
              ? passThrough(base.$extends(snowkey(options)) as unknown as PrismaClient)
              : base.$extends(snowkey(options));
    // One delegate per variant, typed as the loosest of the three (every row has an optional id).
    const delegate = { autoincrement: client.autoRow, 'hand-set': client.handRow, snowkey: client.snowRow }[
      variant
    ] as unknown as {
      createMany(args: { data: BenchRow[] }): Promise<unknown>;
      createManyAndReturn(args: { data: BenchRow[]; select: { id: true } }): Promise<unknown>;
      create(args: { data: BenchRow; select: { id: true } }): Promise<unknown>;
    };
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      async write(path, rows) {
        if (path === createMany) await inChunks(rows, 1000, (c) => delegate.createMany({ data: withIds(c) }));
        else if (path === createManyAndReturn)
          await inChunks(rows, 1000, (c) =>
            delegate.createManyAndReturn({ data: withIds(c), select: { id: true } }),
          );
        else
          for (const row of rows) await delegate.create({ data: withIds([row])[0]!, select: { id: true } });
      },
      close: () => base.$disconnect(),
    };
  },
});
