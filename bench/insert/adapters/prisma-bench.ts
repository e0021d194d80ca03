import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snowkey, snowkeyClient } from '@snowkey/prisma';
import { ensurePrismaClients } from '../../../scripts/prisma-generate-offline.mjs';
import type { BenchDatabase } from '../bench-database.js';
import type { PrismaClient } from '../generated/postgres/client/client.js';
import {
  type AdapterBench,
  type BenchRow,
  callerRows,
  inChunks,
  type Variant,
  type WritePath,
} from './adapter-bench.js';

const here = dirname(fileURLToPath(import.meta.url));

const paths = {
  createMany: { name: 'createMany(1000 rows)', rowsPerCall: 1000 },
  createManyAndReturn: {
    name: 'createManyAndReturn(1000 rows)',
    rowsPerCall: 1000,
    dialects: ['postgres', 'sqlite'],
  },
  create: { name: 'create(1 row)', rowsPerCall: 1 },
} satisfies Record<string, WritePath>;

export async function driverAdapter(db: BenchDatabase): Promise<object> {
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
export function passThroughExtension(base: PrismaClient) {
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

/** How a variant's client is made: extension, wrapper, behind or before a pass-through extension. */
type Attach = 'extension' | 'wrapper' | 'extension-vs-pass-through' | 'extension-before-pass-through';

const NAMES: Record<Attach, string> = {
  extension: 'Prisma',
  wrapper: 'Prisma (snowkeyClient)',
  'extension-vs-pass-through': 'Prisma (extension vs a pass-through one)',
  'extension-before-pass-through': 'Prisma (extension before a pass-through one)',
};

/** The client a variant writes through. */
function variantClient(
  attach: Attach,
  variant: Variant,
  base: PrismaClient,
  options: Parameters<typeof snowkey>[0],
) {
  const passThrough = attach === 'extension-vs-pass-through' || attach === 'extension-before-pass-through';
  if (variant !== 'snowkey') return passThrough ? passThroughExtension(base) : base;
  switch (attach) {
    case 'wrapper':
      return snowkeyClient(base, options);
    case 'extension-vs-pass-through':
      return passThroughExtension(base).$extends(snowkey(options));
    case 'extension-before-pass-through':
      return passThroughExtension(base.$extends(snowkey(options)) as unknown as PrismaClient);
    case 'extension':
      return base.$extends(snowkey(options));
  }
}

/** Prisma 7 with driver adapters: createMany, createManyAndReturn (not on MySQL), create; see `Attach`. */
function prismaBenchOf(attach: Attach): AdapterBench {
  return {
    name: NAMES[attach],
    paths: Object.values(paths),
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
      const client = variantClient(attach, variant, base, { generator, models: { SnowRow: 'id' } });
      // One delegate per variant, typed as the loosest of the three (every row has an optional id).
      const delegate = (variant === 'autoincrement'
        ? client.autoRow
        : variant === 'hand-set'
          ? client.handRow
          : client.snowRow) as unknown as {
        createMany(args: { data: BenchRow[] }): Promise<unknown>;
        createManyAndReturn(args: { data: BenchRow[]; select: { id: true } }): Promise<unknown>;
        create(args: { data: BenchRow; select: { id: true } }): Promise<unknown>;
      };
      const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
      return {
        async write(path, rows) {
          if (path === paths.createMany)
            await inChunks(rows, 1000, (c) => delegate.createMany({ data: withIds(c) }));
          else if (path === paths.createManyAndReturn) {
            await inChunks(rows, 1000, (c) =>
              delegate.createManyAndReturn({ data: withIds(c), select: { id: true } }),
            );
          } else
            for (const row of rows) await delegate.create({ data: withIds([row])[0]!, select: { id: true } });
        },
        close: () => base.$disconnect(),
      };
    },
  };
}

export const prismaBench = prismaBenchOf('extension');
export const prismaClientBench = prismaBenchOf('wrapper');
export const prismaPassThroughBench = prismaBenchOf('extension-vs-pass-through');
export const prismaBeforePassThroughBench = prismaBenchOf('extension-before-pass-through');
