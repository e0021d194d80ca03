// The free variables of @snowkey/knex's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code".
import type { IdGenerator, Snowflake } from '@snowkey/core';
import type { Knex } from 'knex';
import type { SnowkeyKnex } from './src/index.js';

export { Snowflake } from '@snowkey/core';
export { default as knex } from 'knex';
export { default as mysql } from 'mysql2/promise';
// Internal names some examples show.
export { knexDialect, SUPPORTED_CLIENTS } from './src/dialect.js';
export { fillIds } from './src/fill-ids.js';
export * from './src/index.js';
export type { IdColumnsOf, InsertRow } from './src/snowkey-knex.js';

/** The application's Knex instance, and a transaction of it. */
export declare const db: Knex;
export declare const trx: Knex.Transaction;
/** The helper over the README's tables. */
export declare const sk: SnowkeyKnex<{
  players: 'id';
  items: ['id', 'serial_no'];
  guilds: 'id';
  members: 'id';
}>;
/** Rows to insert (a few, and many). */
export declare const rows: Array<{ name: string }>;
export declare const many: Array<{ label: string }>;
export declare const thousandsOfRows: Array<{ label: string }>;
/** A generator (a Snowflake, or any IdGenerator). */
export declare const gen: Snowflake;
export declare const generator: IdGenerator;
/** Connection settings. */
export declare const connection: Knex.StaticConnectionConfig;
export declare const uri: string;
export declare const host: string;
export declare const user: string;
export declare const database: string;
