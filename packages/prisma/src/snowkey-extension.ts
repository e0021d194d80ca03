import { Prisma } from '@prisma/client/extension';
import { clientPlan } from './client-plan.js';
import { attachWrapper } from './client-wrapper.js';
import { delegateName } from './data-model.js';
import { createIdFiller, FILLED_OPERATIONS, type FilledOperation } from './fill-ids.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';
import { assertPrismaClientVersion } from './peer-version.js';
import { hasWriteQueryCallbacks } from './prisma-internals.js';

/**
 * A Prisma client extension that fills snowflake ids before the INSERT: in `create`,
 * `createMany`, `createManyAndReturn` (where Prisma offers it: not on MySQL), the create branch
 * of `upsert`, and every nested `create`, `createMany`, `connectOrCreate` and `upsert` at any
 * depth (also under `update`), inside `$transaction` of both forms too. An id the caller set is
 * kept. Within one query, rows are numbered in the order Prisma inserts them: a parent, whichever
 * side the write starts from, before the rows that point at it.
 *
 * On a client whose own query extensions (if any) touch none of these writes, it fills in front
 * of Prisma, as {@link snowkeyClient} does, and the extended client skips Prisma's extension layer
 * (a deep copy of the arguments on every call): the ids are drawn when the call is made. Behind a
 * query extension that runs on a write, it is a Prisma query extension itself, after that one, so
 * rows that extension adds get ids too: the ids are drawn when the query runs. Either way,
 * extensions added after it see the ids, and so do client and model methods that write through
 * `Prisma.getExtensionContext(this)`; rows that a query extension added after it adds to a write
 * get none (the write is refused on the missing key). Writes to models that can hold no
 * snowflake id (none in `models`, and no relation leading to one) are left to Prisma untouched,
 * and a query extension on them counts for neither way.
 *
 * The options are checked at once; `$extends` then checks `models` against the data model (the
 * `dataModel` option, which the `snowkey-prisma-generator` generator writes; else the client's own)
 * and throws {@link SnowflakeFieldError} for an unknown model or a field that is not a `BigInt`
 * scalar.
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
