import { clientPlan } from './client-plan.js';
import { attachWrapper } from './client-wrapper.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';
import { assertPrismaClientVersion } from './peer-version.js';

/**
 * The same client, filling snowflake ids before Prisma sees the arguments: the writes and rules of
 * the {@link snowkey} extension (every kind of create, nested writes at any depth, both forms of
 * `$transaction`, a caller's id kept), without a Prisma query extension. Prisma runs every call of
 * a client with a query extension through its extension layer, which deep-copies the arguments;
 * here snowkey copies only the objects on the way to the ids it writes (your objects are never
 * changed) and hands every other call to the client as it is. It keeps filling on a client you
 * `$extends` afterwards (in its query extensions, and in client and model methods that write
 * through `Prisma.getExtensionContext(this)`), and on the `tx` of an interactive transaction.
 * `$extends(snowkey())` on a client without query extensions of its own returns this wrapper.
 *
 * `options.models` is checked against the data model at once ({@link SnowflakeFieldError}).
 * A refused caller id rejects the returned promise, as the extension's does, before any SQL.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { snowkeyClient } from '@snowkey/prisma';
 * import { PrismaClient } from './generated/prisma/client.js';
 * import { dataModel } from './generated/snowkey/data-model.js';
 *
 * const prisma = snowkeyClient(new PrismaClient({ adapter }), {
 *   generator: new Snowflake({ workerId: 1 }),
 *   models: { Player: 'id', Match: 'id' },
 *   dataModel,
 * });
 * const player = await prisma.player.create({ data: { name: 'Aria' } }); // player.id: bigint
 */
export function snowkeyClient<Client extends object, ModelName extends string = string>(
  client: Client,
  options: SnowkeyPrismaOptions<ModelName>,
): Client {
  assertPrismaClientVersion();
  const resolved = resolveOptions(options);
  return attachWrapper(client, clientPlan(client, resolved), resolved);
}
