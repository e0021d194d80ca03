import type { HasDefault, HasRuntimeDefault } from 'drizzle-orm';
import { type ConvertCustomConfig, customType, type MySqlCustomColumnBuilder } from 'drizzle-orm/mysql-core';
import { assertDrizzleVersion } from '../peer-version.js';
import {
  columnArgs,
  type IdGeneratorSource,
  type SnowflakeIdType,
  snowflakeIdParams,
} from '../snowflake-id-type.js';

// mysql2 writes a bigint parameter into the SQL as an exact integer literal.
const idColumn = customType<SnowflakeIdType>(snowflakeIdParams((id) => id, 'id'));
const refColumn = customType<SnowflakeIdType>(snowflakeIdParams((id) => id, 'ref'));

/**
 * The column `snowflakeId` declares on MySQL and MariaDB: a `bigint` column whose TypeScript type is
 * `bigint`, optional in inserts (its `$defaultFn` fills it).
 *
 * @example
 * import { type MySqlSnowflakeIdBuilder, snowflakeId } from '@snowkey/drizzle/mysql-core';
 *
 * const id: MySqlSnowflakeIdBuilder<'id'> = snowflakeId('id', generator);
 */
export type MySqlSnowflakeIdBuilder<TName extends string> = HasRuntimeDefault<
  HasDefault<MySqlCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>>
>;

/**
 * A snowflake id column for `mysqlTable`: SQL type `bigint`, TypeScript type `bigint`, filled from
 * `generator` by `$defaultFn` whenever an insert leaves it out. An id you set is kept if it is a
 * key (a bigint in 1..2^63-1); anything else is an `InvalidArgumentError` naming the column,
 * before any SQL is sent. Chain `.primaryKey()` (or `.notNull()`) as with any Drizzle column.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { type MySqlSnowflakeIdBuilder, snowflakeId } from '@snowkey/drizzle/mysql-core';
 * import { mysqlTable, varchar } from 'drizzle-orm/mysql-core';
 *
 * const generator = new Snowflake({ workerId: 1 });
 * export const players = mysqlTable('players', {
 *   id: snowflakeId(generator).primaryKey(), // or snowflakeId('id', generator)
 *   name: varchar({ length: 100 }).notNull(),
 * });
 */
export function snowflakeId(generator: IdGeneratorSource): MySqlSnowflakeIdBuilder<''>;
export function snowflakeId<TName extends string>(
  name: TName,
  generator: IdGeneratorSource,
): MySqlSnowflakeIdBuilder<TName>;
export function snowflakeId(a: string | IdGeneratorSource, b?: IdGeneratorSource) {
  const { name, nextId } = columnArgs(a, b);
  return idColumn(name).$defaultFn(nextId);
}

/**
 * A column for `mysqlTable` that refers to a snowflake id (a foreign key): the same SQL type,
 * TypeScript type and checks as {@link snowflakeId}, never filled.
 *
 * @example
 * import { snowflakeId, snowflakeRef } from '@snowkey/drizzle/mysql-core';
 * import { mysqlTable, varchar } from 'drizzle-orm/mysql-core';
 *
 * const players = mysqlTable('players', { id: snowflakeId(generator).primaryKey() });
 * export const items = mysqlTable('items', {
 *   id: snowflakeId(generator).primaryKey(),
 *   ownerId: snowflakeRef('owner_id').notNull().references(() => players.id),
 *   kind: varchar({ length: 40 }).notNull(),
 * });
 */
export function snowflakeRef<TName extends string = ''>(
  name?: TName,
): MySqlCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>> {
  assertDrizzleVersion();
  return refColumn(name ?? '') as MySqlCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>;
}
