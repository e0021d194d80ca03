import { InvalidArgumentError } from '@snowkey/core';
import { buildWritePlan, delegateName, filledModels, type WritePlan } from './data-model.js';
import type { ResolvedOptions } from './options.js';
import { readRuntimeDataModel } from './prisma-internals.js';

/** What snowkey knows of one client: the plan its filler follows, and the models whose writes it fills. */
export interface ClientPlan {
  readonly plan: WritePlan;
  /** The models whose writes can hold a snowflake id ({@link filledModels}); the others are never touched. */
  readonly models: readonly string[];
}

/**
 * Takes the data model (the `dataModel` option, else the client's own), checks `options.models`
 * against it (throwing `SnowflakeFieldError`), and builds the write plan: the one setup behind
 * both ways of attaching snowkey to a client, the extension and `snowkeyClient`.
 */
export function clientPlan(client: object, options: ResolvedOptions): ClientPlan {
  if (options.dataModel === undefined) {
    const plan = buildWritePlan(readRuntimeDataModel(client), options.models);
    return { plan, models: filledModels(plan) };
  }
  const { definitions, parentSides } = options.dataModel;
  for (const model of Object.keys(definitions.models)) {
    const delegate = (client as Record<string, unknown>)[delegateName(model)];
    if (typeof delegate !== 'object' || delegate === null) {
      throw new InvalidArgumentError(
        'dataModel',
        `the data model of this client's schema, every model of it a delegate of the client (run \`prisma generate\` to write both again)`,
        `model ${model}`,
      );
    }
  }
  const plan = buildWritePlan(definitions, options.models, parentSides);
  return { plan, models: filledModels(plan) };
}
