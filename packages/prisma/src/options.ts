import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { assertIdGenerator } from '@snowkey/core/adapter';

/**
 * Options of {@link snowkey}. `ModelName` narrows the keys of `models` to the client's models:
 * pass the generated `Prisma.ModelName` type to have the compiler check them too.
 *
 * @example
 * const options: SnowkeyPrismaOptions<Prisma.ModelName> = {
 *   generator: new Snowflake({ workerId: 1 }),
 *   models: { Player: 'id', Replay: ['id', 'shareId'] },
 * };
 */
export interface SnowkeyPrismaOptions<ModelName extends string = string> {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
  /**
   * The snowflake fields, once, by model: `{ Player: 'id', Match: ['id', 'replayId'] }`. Checked
   * against the client's data model by `$extends`: every model and field must exist and every
   * field must be a `BigInt` scalar.
   */
  models: { readonly [M in ModelName]?: string | readonly string[] };
}

/** The options after validation: model name to its snowflake fields. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly models: ReadonlyMap<string, readonly string[]>;
}

const MODELS = 'an object mapping model names to a field name or a non-empty array of field names';

/** Checks the shape of the options, before the client is known; the data model check comes at `$extends`. */
export function resolveOptions(options: SnowkeyPrismaOptions<string>): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with "generator" and "models"', options);
  }
  const { generator, models } = options;
  assertIdGenerator(generator);
  if (models === null || typeof models !== 'object' || Array.isArray(models)) {
    throw new InvalidArgumentError('models', MODELS, models);
  }
  const resolved = new Map<string, readonly string[]>();
  for (const [model, spec] of Object.entries(models)) {
    if (spec === undefined) continue;
    const fields = typeof spec === 'string' ? [spec] : spec;
    if (
      !Array.isArray(fields) ||
      fields.length === 0 ||
      !fields.every((f) => typeof f === 'string' && f.length > 0)
    ) {
      throw new InvalidArgumentError(
        `models.${model}`,
        'a field name or a non-empty array of field names',
        spec,
      );
    }
    resolved.set(model, [...new Set(fields as string[])]);
  }
  if (resolved.size === 0)
    throw new InvalidArgumentError('models', `${MODELS}, with at least one model`, models);
  return { generator, models: resolved };
}
