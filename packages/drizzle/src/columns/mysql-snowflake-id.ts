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

/** The column `snowflakeId` declares: `bigint` in SQL and TypeScript, optional in inserts. */
export type MySqlSnowflakeIdBuilder<TName extends string> = HasRuntimeDefault<
  HasDefault<MySqlCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>>
>;

/**
 * A snowflake id column for `mysqlTable`, filled from `generator` when an insert leaves it out; an id
 * you set is kept if it is a key, else refused before any SQL is sent.
 *
 * @example
 * import { snowflakeId } from '@snowkey/drizzle/mysql-core';
 * import { mysqlTable } from 'drizzle-orm/mysql-core';
 * export const players = mysqlTable('players', { id: snowflakeId(generator).primaryKey() });
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
 * A column for `mysqlTable` that refers to a snowflake id (a foreign key): the same type and checks
 * as {@link snowflakeId}, never filled.
 *
 * @example
 * import { snowflakeRef } from '@snowkey/drizzle/mysql-core';
 * const ownerId = snowflakeRef('owner_id').notNull();
 */
export function snowflakeRef<TName extends string = ''>(
  name?: TName,
): MySqlCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>> {
  assertDrizzleVersion();
  return refColumn(name ?? '') as MySqlCustomColumnBuilder<ConvertCustomConfig<TName, SnowflakeIdType>>;
}
