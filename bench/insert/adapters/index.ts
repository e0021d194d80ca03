import type { AdapterBench } from './adapter-bench.js';

/** Every adapter by its `--adapters` name, loaded on demand (under valgrind, loading all takes minutes). */
const LOADERS: Readonly<Record<string, () => Promise<AdapterBench>>> = {
  typeorm: async () => (await import('./typeorm-bench.js')).typeormBench,
  prisma: async () => (await import('./prisma-bench.js')).prismaBench,
  'prisma-client': async () => (await import('./prisma-bench.js')).prismaClientBench,
  'prisma-pass-through': async () => (await import('./prisma-bench.js')).prismaPassThroughBench,
  'prisma-before-pass-through': async () => (await import('./prisma-bench.js')).prismaBeforePassThroughBench,
  knex: async () => (await import('./knex-bench.js')).knexBench,
  drizzle: async () => (await import('./drizzle-bench.js')).drizzleBench,
  kysely: async () => (await import('./kysely-bench.js')).kyselyBench,
  'kysely-pass-through': async () => (await import('./kysely-bench.js')).kyselyPassThroughBench,
  sequelize: async () => (await import('./sequelize-bench.js')).sequelizeBench,
};

/** The adapters' names, in the order the bench reports them. */
export const ADAPTER_NAMES: readonly string[] = Object.keys(LOADERS);

/** Loads one adapter's bench module by its `--adapters` name. */
export async function loadAdapterBench(name: string): Promise<AdapterBench> {
  const load = LOADERS[name];
  if (!load) throw new Error(`unknown adapter ${name}: ${ADAPTER_NAMES.join(', ')}`);
  return load();
}
