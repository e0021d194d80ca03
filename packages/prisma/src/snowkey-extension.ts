import { Prisma } from '@prisma/client/extension';
import { clientFiller } from './client-filler.js';
import { attachWrapper } from './client-wrapper.js';
import { FILLED_OPERATIONS, type FilledOperation } from './fill-ids.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';
import { hasWriteQueryCallbacks } from './query-callbacks.js';

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
 * `Prisma.getExtensionContext(this)`.
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
  const resolved = resolveOptions(options);
  return Prisma.defineExtension((client) => {
    // Nothing of the client's own runs on a write before snowkey: fill in front of Prisma, as
    // snowkeyClient does, and skip Prisma's extension layer (a deep copy of the arguments per call).
    if (!hasWriteQueryCallbacks(client)) return attachWrapper(client, resolved, client);
    const { filler } = clientFiller(client, resolved, false);
    const fill = ({ model, operation, args, query }: QueryCall) => query(filler.fill(model, operation, args));
    // Every operation that can create a row, from the one list the client wrapper uses too.
    const callbacks = Object.fromEntries(FILLED_OPERATIONS.map((op) => [op, fill])) as Record<
      FilledOperation,
      typeof fill
    >;
    return client.$extends({ name: '@snowkey/prisma', query: { $allModels: callbacks } });
  });
}

/** What a Prisma query-extension callback receives, as far as the fill needs it. */
interface QueryCall {
  model: string;
  operation: string;
  args: unknown;
  query(args: unknown): Promise<unknown>;
}
