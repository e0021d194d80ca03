import { Prisma } from '@prisma/client/extension';
import { clientPlan } from './client-plan.js';
import { attachWrapper } from './client-wrapper.js';
import { delegateName } from './data-model.js';
import { createIdFiller, FILLED_OPERATIONS, type FilledOperation } from './fill-ids.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';
import { assertPrismaClientVersion } from './peer-version.js';
import { hasWriteQueryCallbacks } from './prisma-internals.js';

/**
 * A Prisma client extension that fills snowflake ids before the INSERT, in every kind of create,
 * nested writes at any depth and both forms of `$transaction`; a caller's id is kept, and a parent
 * gets a smaller id than the rows that point at it. Rows a query extension added after it adds get
 * none (the write is refused on the missing key).
 *
 * @example
 * import { Prisma, PrismaClient } from './generated/prisma/client.js';
 * import { dataModel } from './generated/snowkey/data-model.js';
 * import { Snowflake } from '@snowkey/core';
 * import { snowkey } from '@snowkey/prisma';
 *
 * const prisma = new PrismaClient({ adapter }).$extends(
 *   snowkey<Prisma.ModelName>({
 *     generator: new Snowflake({ workerId: 1 }),
 *     models: { Player: 'id', Match: 'id' },
 *     dataModel,
 *   }),
 * );
 * const player = await prisma.player.create({ data: { name: 'Aria' } }); // player.id: bigint
 */
export function snowkey<ModelName extends string = string>(options: SnowkeyPrismaOptions<ModelName>) {
  assertPrismaClientVersion();
  const resolved = resolveOptions(options);
  return Prisma.defineExtension((client) => {
    const prepared = clientPlan(client, resolved);
    // Nothing of the client's own runs before snowkey on a write it fills: fill in front of Prisma,
    // as snowkeyClient does, and skip Prisma's extension layer (a deep copy of the arguments per call).
    if (!hasWriteQueryCallbacks(client, prepared.models))
      return attachWrapper(client, prepared, resolved, client);
    const filler = createIdFiller(prepared.plan, resolved.generator, false);
    const fill = ({ model, operation, args, query }: QueryCall) => query(filler.fill(model, operation, args));
    // Every operation that can create a row, from the one list the client wrapper uses too.
    const callbacks = Object.fromEntries(FILLED_OPERATIONS.map((op) => [op, fill])) as Record<
      FilledOperation,
      typeof fill
    >;
    // Only on the models whose writes can hold an id: a write to any other model runs no callback
    // of snowkey's, so it does not pay Prisma's extension layer once more.
    const query = Object.fromEntries(prepared.models.map((model) => [delegateName(model), callbacks]));
    return client.$extends({ name: '@snowkey/prisma', query });
  });
}

/** What a Prisma query-extension callback receives, as far as the fill needs it. */
interface QueryCall {
  model: string;
  operation: string;
  args: unknown;
  query(args: unknown): Promise<unknown>;
}
