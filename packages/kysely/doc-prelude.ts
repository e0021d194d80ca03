// The free variables of @snowkey/kysely's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code".
import type { IdGenerator } from '@snowkey/core';
import type { ColumnType, Dialect, Kysely, Transaction } from 'kysely';
import type pg from 'pg';
import type { SnowkeyPlugin } from './src/index.js';

export { Snowflake } from '@snowkey/core';
export { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
export { createPool } from 'mysql2';
// Internal names some examples show.
export { kyselyDialect } from './src/dialect.js';
export * from './src/index.js';

/** A snowflake key: read as bigint, optional on insert (the plugin fills it), never updated. */
type Key = ColumnType<bigint, bigint | undefined, never>;
/** The README's tables, and one more for an INSERT ... SELECT. */
export interface Database {
  players: { id: Key; name: string; level: ColumnType<number, number | undefined, number> }; // level has a default
  items: { id: Key; serial_no: Key; label: string };
  signups: { name: string };
}

/** The application's Kysely instance with the plugin, a transaction of it, and the plugin. */
export declare const db: Kysely<Database>;
export declare const trx: Transaction<Database>;
export declare const sk: SnowkeyPlugin<{ players: 'id'; items: ['id', 'serial_no'] }>;
/** Rows with their ids, as `sk.withIds('players', ...)` returns them. */
export declare const rows: Array<{ id: bigint; name: string; level: number }>;
/** What a Kysely set-up needs. */
export declare const dialect: Dialect;
export declare const generator: IdGenerator;
export declare const pool: pg.Pool;
export declare const uri: string;
export declare const connectionString: string;
