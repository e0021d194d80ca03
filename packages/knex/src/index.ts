export { SnowkeyBatchInsert } from './batch-insert.js';
export { bigintTypeCast, type TypeCast, type TypeCastField, withBigintReads } from './bigint-reads.js';
export { knexDialect } from './dialect.js';
export { UpsertReadBackError } from './errors.js';
export { SnowkeyInsert, SnowkeyOnConflict } from './insert-query.js';
export { knexSqlClient } from './knex-sql-client.js';
export type { SnowflakeTables, SnowkeyKnexOptions } from './options.js';
export { PendingInsert } from './pending-insert.js';
export {
  type IdColumnsOf,
  type InsertedRow,
  type InsertRow,
  SnowkeyKnex,
  snowkeyKnex,
} from './snowkey-knex.js';
