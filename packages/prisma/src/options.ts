import type { IdGenerator } from '@snowkey/core';
import { resolveSnowflakeColumns } from '@snowkey/core/adapter';

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

/**
 * Checks the shape of the options (core's one rule for every adapter's options), before the client
 * is known; the data model check comes at `$extends`.
 */
export function resolveOptions(options: SnowkeyPrismaOptions<string>): ResolvedOptions {
  const { generator, columns } = resolveSnowflakeColumns(options, {
    option: 'models',
    owner: 'model',
    column: 'field',
  });
  return { generator, models: columns };
}
