import { clientPlan } from './client-plan.js';
import { attachWrapper } from './client-wrapper.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';
import { assertPrismaClientVersion } from './peer-version.js';

/**
 * The same client, filling snowflake ids as the {@link snowkey} extension does but without a Prisma
 * query extension, whose layer deep-copies every call's arguments; only the objects on the way to
 * an id are copied.
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
