import type { IdGenerator } from '@snowkey/core';
import { resolveSnowflakeColumns } from '@snowkey/core/adapter';
import { type PrismaDataModel, type ReadDataModel, readPrismaDataModel } from './prisma-data-model.js';

/**
 * Options of {@link snowkey}. `ModelName` narrows the keys of `models` to the client's models:
 * pass the generated `Prisma.ModelName` type to have the compiler check them too.
 *
 * @example
 * import { dataModel } from './generated/snowkey/data-model.js';
 *
 * const options: SnowkeyPrismaOptions<Prisma.ModelName> = {
 *   generator: new Snowflake({ workerId: 1 }),
 *   models: { Player: 'id', Replay: ['id', 'shareId'] },
 *   dataModel,
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
  /**
   * The schema's data model, as the `snowkey-prisma-generator` generator writes it at
   * `prisma generate` (`import { dataModel } from './generated/snowkey/data-model.js'`). From it
   * snowkey knows which side of each relation holds the foreign key, so within one nested write a
   * parent row gets a smaller id than the rows that point at it. Without it, snowkey reads the
   * models from the client's private runtime data model, which does not say which side holds the
   * key: ids are still filled everywhere, in the order of the arguments (a row before the rows
   * nested in it).
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
