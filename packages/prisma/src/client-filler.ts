import { buildWritePlan, type RuntimeDataModel, readDataModel } from './data-model.js';
import { createIdFiller, type IdFiller } from './fill-ids.js';
import { foreignKeySides } from './foreign-key-sides.js';
import type { ResolvedOptions } from './options.js';

/** A client's filler, and its data model for the callers that map delegates to models. */
export interface ClientFiller {
  readonly filler: IdFiller;
  readonly dataModel: RuntimeDataModel;
}

/**
 * Reads `client`'s data model and schema, checks `options.models` against them (throwing
 * `SnowflakeFieldError`), and builds the filler: the one setup behind both ways of attaching
 * snowkey to a client, the extension (`copy: false`, it fills Prisma's copy of the arguments) and
 * `snowkeyClient` (`copy: true`).
 */
export function clientFiller(client: unknown, options: ResolvedOptions, copy: boolean): ClientFiller {
  const dataModel = readDataModel(client);
  const plan = buildWritePlan(dataModel, options.models, foreignKeySides(client, dataModel));
  return { filler: createIdFiller(plan, options.generator, copy), dataModel };
}
