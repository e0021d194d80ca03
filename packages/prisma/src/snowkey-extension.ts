import { Prisma } from '@prisma/client/extension';
import { buildWritePlan, readDataModel } from './data-model.js';
import { createIdFiller } from './fill-ids.js';
import { foreignKeySides } from './foreign-key-sides.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';

/**
 * A Prisma client extension that fills snowflake ids before the INSERT: in `create`,
 * `createMany`, `createManyAndReturn` (where Prisma offers it: not on MySQL), the create branch
 * of `upsert`, and every nested `create`, `createMany`, `connectOrCreate` and `upsert` at any
 * depth (also under `update`), inside `$transaction` of both forms too. An id the caller set is
 * kept. Within one query, rows are numbered in the order Prisma inserts them: a parent, whichever
 * side the write starts from, before the rows that point at it.
 *
 * The options are checked at once; `$extends` then checks `models` against the client's data
 * model and throws {@link SnowflakeFieldError} for an unknown model or a field that is not a
 * `BigInt` scalar.
 *
 * @example
 * import { Prisma, PrismaClient } from './generated/prisma/client.js';
 * import { Snowflake } from '@snowkey/core';
 * import { snowkey } from '@snowkey/prisma';
 *
 * const prisma = new PrismaClient({ adapter }).$extends(
 *   snowkey<Prisma.ModelName>({
 *     generator: new Snowflake({ workerId: 1 }),
 *     models: { Player: 'id', Match: 'id' },
 *   }),
 * );
 * const player = await prisma.player.create({ data: { name: 'Aria' } }); // player.id: bigint
 */
export function snowkey<ModelName extends string = string>(options: SnowkeyPrismaOptions<ModelName>) {
  const { generator, models } = resolveOptions(options);
  return Prisma.defineExtension((client) => {
    const dataModel = readDataModel(client);
    const plan = buildWritePlan(dataModel, models, foreignKeySides(client, dataModel));
    const filler = createIdFiller(plan, generator);
    return client.$extends({
      name: '@snowkey/prisma',
      query: {
        $allModels: {
          create: ({ model, operation, args, query }) =>
            query(filler.fill(model, operation, args) as typeof args),
          createMany: ({ model, operation, args, query }) =>
            query(filler.fill(model, operation, args) as typeof args),
          createManyAndReturn: ({ model, operation, args, query }) =>
            query(filler.fill(model, operation, args) as typeof args),
          upsert: ({ model, operation, args, query }) =>
            query(filler.fill(model, operation, args) as typeof args),
          update: ({ model, operation, args, query }) =>
            query(filler.fill(model, operation, args) as typeof args),
        },
      },
    });
  });
}
