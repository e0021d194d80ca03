// The free variables of @snowkey/drizzle's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code". The dialect entries export the same
// column names, so an example imports `snowflakeId` from its own dialect's entry; `players` and
// `db` here are MySQL's, the dialect whose upserts need `storedIds`.
import type { IdGenerator } from '@snowkey/core';
import { int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import type { MySql2Database } from 'drizzle-orm/mysql2';
import type pg from 'pg';
import { snowflakeId } from './src/mysql-core.js';

export { Snowflake } from '@snowkey/core';
export { sql } from 'drizzle-orm';
export { drizzle } from 'drizzle-orm/node-postgres';
export { customType } from 'drizzle-orm/pg-core';
// Internal names some examples show.
export { drizzleDriver, SUPPORTED_DRIVERS } from './src/drizzle-driver.js';
export * from './src/index.js';
export { type StoredIdsOptions, storedIds } from './src/mysql-core.js';
export { type SnowflakeIdType, snowflakeIdParams } from './src/snowflake-id-type.js';

/** A generator, a pg pool and a mysql2 connection URI. */
export declare const generator: IdGenerator;
export declare const pool: pg.Pool;
export declare const uri: string;
/** A MySQL table of players and the Drizzle database over it. */
export const players = mysqlTable('players', {
  id: snowflakeId(generator).primaryKey(),
  name: varchar({ length: 100 }).notNull().unique(),
  level: int().notNull(),
});
export declare const db: MySql2Database;
