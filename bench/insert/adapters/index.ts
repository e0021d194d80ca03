import type { AdapterBench } from './adapter-bench.js';
import { drizzleBench } from './drizzle-bench.js';
import { knexBench } from './knex-bench.js';
import { kyselyBench } from './kysely-bench.js';
import { prismaBench, prismaClientBench } from './prisma-bench.js';
import { sequelizeBench } from './sequelize-bench.js';
import { typeormBench } from './typeorm-bench.js';

/** Every adapter the bench knows, by the name `--adapters` takes. */
export const ADAPTER_BENCHES: Readonly<Record<string, AdapterBench>> = {
  typeorm: typeormBench,
  prisma: prismaBench,
  'prisma-client': prismaClientBench,
  knex: knexBench,
  drizzle: drizzleBench,
  kysely: kyselyBench,
  sequelize: sequelizeBench,
};
