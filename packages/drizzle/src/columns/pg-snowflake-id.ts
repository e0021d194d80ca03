import type { HasDefault, HasRuntimeDefault } from 'drizzle-orm';
import { type ConvertCustomConfig, customType, type PgCustomColumnBuilder } from 'drizzle-orm/pg-core';
import { assertDrizzleVersion } from '../peer-version.js';
import {
  columnArgs,
  type IdGeneratorSource,
  type SnowflakeIdType,
  snowflakeIdParams,
} from '../snowflake-id-type.js';

// pg binds the decimal text; PostgreSQL reads it as int8 exactly.
const idColumn = customType<SnowflakeIdType>(snowflakeIdParams(String, 'id'));
const refColumn = customType<SnowflakeIdType>(snowflakeIdParams(String, 'ref'));

/** The column `snowflakeId` declares: `bigint` in SQL and TypeScript, optional in inserts. */
export type PgSnowflakeIdBuilder<TName extends string> = HasRuntimeDefault<
  HasDefault<PgCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>>
>;

/**
 * A snowflake id column for `pgTable`, filled from `generator` when an insert leaves it out; an id
 * you set is kept if it is a key, else refused before any SQL is sent.
 *
 * @example
 * import { snowflakeId } from '@snowkey/drizzle/pg-core';
 * import { pgTable } from 'drizzle-orm/pg-core';
 * export const players = pgTable('players', { id: snowflakeId(generator).primaryKey() });
 */
export function snowflakeId(generator: IdGeneratorSource): PgSnowflakeIdBuilder<''>;
export function snowflakeId<TName extends string>(
  name: TName,
  generator: IdGeneratorSource,
): PgSnowflakeIdBuilder<TName>;
export function snowflakeId(a: string | IdGeneratorSource, b?: IdGeneratorSource) {
  const { name, nextId } = columnArgs(a, b);
  return idColumn(name).$defaultFn(nextId);
}

/**
 * A column for `pgTable` that refers to a snowflake id (a foreign key): the same type and checks
 * as {@link snowflakeId}, never filled.
 *
 * @example
 * import { snowflakeRef } from '@snowkey/drizzle/pg-core';
 * const ownerId = snowflakeRef('owner_id').notNull();
 */
export function snowflakeRef<TName extends string = ''>(
  name?: TName,
): PgCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>> {
  assertDrizzleVersion();
  return refColumn(name ?? '') as PgCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>;
}
