import type { AdapterBench } from './adapter-bench.js';
import { knexBench } from './knex-bench.js';
import { prismaBench } from './prisma-bench.js';
import { typeormBench } from './typeorm-bench.js';

/** Every adapter the bench knows, by the name `--adapters` takes. */
export const ADAPTER_BENCHES: Readonly<Record<string, AdapterBench>> = {
  typeorm: typeormBench,
  prisma: prismaBench,
  knex: knexBench,
};
