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

/**
 * The column `snowflakeId` declares on PostgreSQL: a `bigint` column whose TypeScript type is
 * `bigint`, optional in inserts (its `$defaultFn` fills it).
 *
 * @example
 * import { type PgSnowflakeIdBuilder, snowflakeId } from '@snowkey/drizzle/pg-core';
 *
 * const id: PgSnowflakeIdBuilder<'id'> = snowflakeId('id', generator);
 */
export type PgSnowflakeIdBuilder<TName extends string> = HasRuntimeDefault<
  HasDefault<PgCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>>
>;

/**
 * A snowflake id column for `pgTable`: SQL type `bigint`, TypeScript type `bigint`, filled from
 * `generator` by `$defaultFn` whenever an insert leaves it out. An id you set is kept if it is a
 * key (a bigint in 1..2^63-1); anything else is an `InvalidArgumentError` naming the column,
 * before any SQL is sent. Chain `.primaryKey()` (or `.notNull()`) as with any Drizzle column.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { type PgSnowflakeIdBuilder, snowflakeId } from '@snowkey/drizzle/pg-core';
 * import { pgTable, text } from 'drizzle-orm/pg-core';
 *
 * const generator = new Snowflake({ workerId: 1 });
 * export const players = pgTable('players', {
 *   id: snowflakeId(generator).primaryKey(), // or snowflakeId('id', generator)
 *   name: text().notNull(),
 * });
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
 * A column for `pgTable` that refers to a snowflake id (a foreign key): the same SQL type,
 * TypeScript type and checks as {@link snowflakeId}, never filled.
 *
 * @example
 * import { snowflakeId, snowflakeRef } from '@snowkey/drizzle/pg-core';
 * import { pgTable, text } from 'drizzle-orm/pg-core';
 *
 * const players = pgTable('players', { id: snowflakeId(generator).primaryKey() });
 * export const items = pgTable('items', {
 *   id: snowflakeId(generator).primaryKey(),
 *   ownerId: snowflakeRef('owner_id').notNull().references(() => players.id),
 *   kind: text().notNull(),
 * });
 */
export function snowflakeRef<TName extends string = ''>(
  name?: TName,
): PgCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>> {
  assertDrizzleVersion();
  return refColumn(name ?? '') as PgCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>;
}
