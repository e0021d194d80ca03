import { snowkey, snowkeyClient } from '@snowkey/prisma';
import type { TestDatabase } from '@snowkey/test-harness';
import type { PrismaClient } from '../generated/postgres/client/client.js';
import '../prisma/generate.mjs'; // the clients, generated if missing or stale
import { type AdapterBench, type BenchRow, callerRows, inChunks } from './adapter-bench.js';

async function driverAdapter({ dialect, url, connection: c }: TestDatabase): Promise<object> {
  if (dialect === 'postgres')
    return new (await import('@prisma/adapter-pg')).PrismaPg({ connectionString: url, max: 2 });
  if (dialect === 'mysql') {
    const { host, port, user, password, database } = c;
    const { PrismaMariaDb } = await import('@prisma/adapter-mariadb');
    return new PrismaMariaDb({ host, port, user, password, database, connectionLimit: 2 });
  }
  return new (await import('@prisma/adapter-better-sqlite3')).PrismaBetterSqlite3({ url });
}

/** `base` with a query extension that only calls `query(args)`: Prisma's extension layer alone. */
function passThrough(base: PrismaClient): PrismaClient {
  const create = ({ args, query }: { args: unknown; query: (args: unknown) => Promise<unknown> }) =>
    query(args);
  return base.$extends({
    query: { $allModels: { create, createMany: create, createManyAndReturn: create } },
  }) as unknown as PrismaClient;
}

/** How snowkey's client is made; with a pass-through extension, the baselines get it too. */
const ATTACH = {
  extension: ['Prisma', (base, options) => base.$extends(snowkey(options))],
  snowkeyClient: ['Prisma (snowkeyClient)', (base, options) => snowkeyClient(base, options)],
  'behind-pass-through': [
    'Prisma (extension vs a pass-through one)',
    (base, options) => passThrough(base).$extends(snowkey(options)),
  ],
  'before-pass-through': [
    'Prisma (extension before a pass-through one)',
    (base, options) => passThrough(base.$extends(snowkey(options)) as unknown as PrismaClient),
  ],
} satisfies Record<string, [string, (base: PrismaClient, options: Parameters<typeof snowkey>[0]) => unknown]>;

const MODEL = { autoincrement: 'autoRow', 'hand-set': 'handRow', snowkey: 'snowRow' } as const;
/** A variant's model delegate, typed as the loosest of the three (every row has an optional id). */
type Delegate = Record<'createMany' | 'createManyAndReturn' | 'create', (args: object) => Promise<unknown>>;

/** Prisma 7 with driver adapters: createMany, createManyAndReturn (not on MySQL), create. */
export const prismaBench = (attach: keyof typeof ATTACH): AdapterBench => ({
  name: ATTACH[attach][0],
  paths: [
    { name: 'createMany(1000 rows)' },
    { name: 'createManyAndReturn(1000 rows)', dialects: ['postgres', 'sqlite'] },
    { name: 'create(1 row)', single: true },
  ],
  async open(database, variant, generator) {
    const { PrismaClient: Client } = (await import(`../generated/${database.dialect}/client/client.ts`)) as {
      PrismaClient: new (options: object) => PrismaClient;
    };
    const base = new Client({ adapter: await driverAdapter(database) });
    await base.$connect();
    const client = (
      variant === 'snowkey'
        ? ATTACH[attach][1](base, { generator, models: { SnowRow: 'id' } })
        : attach.endsWith('pass-through')
          ? passThrough(base)
          : base
    ) as PrismaClient;
    const delegate = client[MODEL[variant]] as unknown as Delegate;
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      writes: [
        (rows) => inChunks(rows, 1000, (c) => delegate.createMany({ data: withIds(c) })),
        (rows) =>
          inChunks(rows, 1000, (c) =>
            delegate.createManyAndReturn({ data: withIds(c), select: { id: true } }),
          ),
        (rows) => inChunks(rows, 1, (c) => delegate.create({ data: withIds(c)[0], select: { id: true } })),
      ],
      close: () => base.$disconnect(),
    };
  },
});
