import { buildWritePlan, filledModels, readDataModel, type WritePlan } from './data-model.js';
import { foreignKeySides } from './foreign-key-sides.js';
import type { ResolvedOptions } from './options.js';

/** What snowkey knows of one client: the plan its filler follows, and the models whose writes it fills. */
export interface ClientPlan {
  readonly plan: WritePlan;
  /** The models whose writes can hold a snowflake id ({@link filledModels}); the others are never touched. */
  readonly models: readonly string[];
}

/**
 * Reads `client`'s data model and schema, checks `options.models` against them (throwing
 * `SnowflakeFieldError`), and builds the write plan: the one setup behind both ways of attaching
 * snowkey to a client, the extension and `snowkeyClient`.
 */
export function clientPlan(client: unknown, options: ResolvedOptions): ClientPlan {
  const dataModel = readDataModel(client);
  const plan = buildWritePlan(dataModel, options.models, foreignKeySides(client, dataModel));
  return { plan, models: filledModels(plan) };
}
