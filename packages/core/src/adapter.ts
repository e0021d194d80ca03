// @snowkey/core/adapter: exactly what the ORM adapters and the CLI import, and applications do not.
// The rules live here once (what a key is, how a generator's ids are taken and checked, how SQL
// placeholders are rewritten), so every adapter applies the same ones.

export { int8ArrayParser, PG_INT8_ARRAY_OID, PG_INT8_OID } from './driver-bigint-reads.js';
export { hasExactSqliteIntegers } from './exact-sqlite-integers.js';
export { assertIdGenerator, isIdGenerator, takeId, takeIds } from './id-generator.js';
export { assertKey, generateOrKeep, KEY_EXPECTED, MAX_KEY } from './id-rule.js';
export {
  type FreeResult,
  inspectSqlLeases,
  type LeaseInspector,
  type LeaseRecord,
} from './lease/lease-inspection.js';
export { optionalBoolean } from './option-checks.js';
export { RowCopier } from './row-copier.js';
export {
  type ResolvedSnowflakeColumns,
  resolveSnowflakeColumns,
  type SnowflakeColumnsWords,
} from './snowflake-columns.js';
export { rewriteSqlPlaceholders, SQL_DIALECTS, toPostgresPlaceholders } from './sql-client.js';
export { requireMethod } from './sql-client-drivers.js';
