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

/** The column `snowflakeId` declares: `bigint` in SQL and TypeScript, optional in inserts. */
export type SQLiteSnowflakeIdBuilder<TName extends string> = HasRuntimeDefault<
  HasDefault<SQLiteCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>>
>;

/**
 * A snowflake id column for `sqliteTable`, filled from `generator` when an insert leaves it out; an id
 * you set is kept if it is a key, else refused before any SQL is sent.
 *
 * @example
 * import { snowflakeId } from '@snowkey/drizzle/sqlite-core';
 * import { sqliteTable } from 'drizzle-orm/sqlite-core';
 * export const players = sqliteTable('players', { id: snowflakeId(generator).primaryKey() });
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
 * A column for `sqliteTable` that refers to a snowflake id (a foreign key): the same type and checks
 * as {@link snowflakeId}, never filled.
 *
 * @example
 * import { snowflakeRef } from '@snowkey/drizzle/sqlite-core';
 * const ownerId = snowflakeRef('owner_id').notNull();
 */
export function snowflakeRef<TName extends string = ''>(
  name?: TName,
): SQLiteCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>> {
  assertDrizzleVersion();
  return refColumn(name ?? '') as SQLiteCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>;
}
