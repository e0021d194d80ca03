import type { HasDefault, HasRuntimeDefault } from 'drizzle-orm';
import {
  type ConvertCustomConfig,
  customType,
  type SQLiteCustomColumnBuilder,
} from 'drizzle-orm/sqlite-core';
import { assertDrizzleVersion } from '../peer-version.js';
import {
  columnArgs,
  type IdGeneratorSource,
  type SnowflakeIdType,
  snowflakeIdParams,
} from '../snowflake-id-type.js';

// better-sqlite3 binds a bigint as a 64-bit INTEGER. The SQL type is `bigint`, not `integer`: an
// `integer primary key` would be SQLite's rowid, which SQLite fills itself.
const idColumn = customType<SnowflakeIdType>(snowflakeIdParams((id) => id, 'id'));
const refColumn = customType<SnowflakeIdType>(snowflakeIdParams((id) => id, 'ref'));

/**
 * The column `snowflakeId` declares on SQLite: a `bigint` column whose TypeScript type is
 * `bigint`, optional in inserts (its `$defaultFn` fills it).
 *
 * @example
 * import { type SQLiteSnowflakeIdBuilder, snowflakeId } from '@snowkey/drizzle/sqlite-core';
 *
 * const id: SQLiteSnowflakeIdBuilder<'id'> = snowflakeId('id', generator);
 */
export type SQLiteSnowflakeIdBuilder<TName extends string> = HasRuntimeDefault<
  HasDefault<SQLiteCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>>
>;

/**
 * A snowflake id column for `sqliteTable`: SQL type `bigint`, TypeScript type `bigint`, filled from
 * `generator` by `$defaultFn` whenever an insert leaves it out. An id you set is kept if it is a
 * key (a bigint in 1..2^63-1); anything else is an `InvalidArgumentError` naming the column,
 * before any SQL is sent. Chain `.primaryKey()` (or `.notNull()`) as with any Drizzle column.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { type SQLiteSnowflakeIdBuilder, snowflakeId } from '@snowkey/drizzle/sqlite-core';
 * import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
 *
 * const generator = new Snowflake({ workerId: 1 });
 * export const players = sqliteTable('players', {
 *   id: snowflakeId(generator).primaryKey(), // or snowflakeId('id', generator)
 *   name: text().notNull(),
 * });
 */
export function snowflakeId(generator: IdGeneratorSource): SQLiteSnowflakeIdBuilder<''>;
export function snowflakeId<TName extends string>(
  name: TName,
  generator: IdGeneratorSource,
): SQLiteSnowflakeIdBuilder<TName>;
export function snowflakeId(a: string | IdGeneratorSource, b?: IdGeneratorSource) {
  const { name, nextId } = columnArgs(a, b);
  return idColumn(name).$defaultFn(nextId);
}

/**
 * A column for `sqliteTable` that refers to a snowflake id (a foreign key): the same SQL type,
 * TypeScript type and checks as {@link snowflakeId}, never filled.
 *
 * @example
 * import { snowflakeId, snowflakeRef } from '@snowkey/drizzle/sqlite-core';
 * import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
 *
 * const players = sqliteTable('players', { id: snowflakeId(generator).primaryKey() });
 * export const items = sqliteTable('items', {
 *   id: snowflakeId(generator).primaryKey(),
 *   ownerId: snowflakeRef('owner_id').notNull().references(() => players.id),
 *   kind: text().notNull(),
 * });
 */
export function snowflakeRef<TName extends string = ''>(
  name?: TName,
): SQLiteCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>> {
  assertDrizzleVersion();
  return refColumn(name ?? '') as SQLiteCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>;
}
