export type { SnowkeyBatchInsert } from './batch-insert.js';
export { withBigintReads } from './bigint-reads.js';
export type { SnowkeyInsert, SnowkeyOnConflict } from './insert-query.js';
export { knexSqlClient } from './knex-sql-client.js';
export type { SnowflakeTables, SnowkeyKnexOptions } from './options.js';
export { type InsertedRow, type SnowkeyKnex, snowkeyKnex } from './snowkey-knex.js';
