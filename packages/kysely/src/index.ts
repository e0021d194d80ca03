export { BigintReadError, type PgTypeParsers, pgBigintTypes, verifyBigintReads } from './bigint-reads.js';
export { UnfillableInsertError } from './errors.js';
export { kyselySqlClient } from './kysely-sql-client.js';
export type { SnowflakeTables, SnowflakeTablesOf, SnowkeyPluginOptions } from './options.js';
export { type ReadStoredIdsOptions, readStoredIds } from './read-stored-ids.js';
export { type IdColumnsOf, type SnowkeyPlugin, snowkeyPlugin, type WithIds } from './snowkey-plugin.js';
