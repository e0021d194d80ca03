import type { IdGenerator } from '@snowkey/core';
import { resolveSnowflakeColumns } from '@snowkey/core/adapter';
import { type PrismaDataModel, type ReadDataModel, readPrismaDataModel } from './prisma-data-model.js';

/** Options of {@link snowkey}; pass `Prisma.ModelName` as `ModelName` to have the compiler check `models`. */
export interface SnowkeyPrismaOptions<ModelName extends string = string> {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
  /** The snowflake fields by model, `{ Player: 'id' }`, each checked to be a `BigInt` scalar. */
  models: { readonly [M in ModelName]?: string | readonly string[] };
  /**
   * The data model the `snowkey-prisma-generator` generator writes: it says which side of a relation
   * holds the foreign key, so a parent gets a smaller id than its children (else argument order).
   */
  dataModel?: PrismaDataModel;
}

/** The options after validation: model name to its snowflake fields. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly models: ReadonlyMap<string, readonly string[]>;
  /** The `dataModel` option, checked and read; undefined when not given. */
  readonly dataModel: ReadDataModel | undefined;
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
  const dataModel = options.dataModel === undefined ? undefined : readPrismaDataModel(options.dataModel);
  return { generator, models: columns, dataModel };
}
