// @snowkey/core/adapter: what ORM adapters and other integrations need, and applications do not.
// The rules live here once (what a key is, how a generator's ids are taken and checked, how SQL
// placeholders are rewritten), so every adapter applies the same ones.

export { copyRow } from './copy-row.js';
export {
  bigintTypeCast,
  int8ArrayParser,
  PG_INT8_ARRAY_OID,
  PG_INT8_OID,
  type TypeCast,
  type TypeCastField,
} from './driver-bigint-reads.js';
export { describeValue, type LayoutFieldReport } from './errors.js';
export { exactSqliteIntegers, hasExactSqliteIntegers } from './exact-sqlite-integers.js';
export {
  assertIdGenerator,
  ID_GENERATOR_EXPECTED,
  isIdGenerator,
  type TimestampFence,
  takeId,
  takeIds,
} from './id-generator.js';
export { assertKey, callerIdAction, isKey, KEY_EXPECTED, MAX_KEY } from './id-rule.js';
export { assertLayout } from './layout.js';
export {
  type FreeResult,
  inspectSqlLeases,
  LeaseFreeRefusedError,
  type LeaseInspector,
  type LeaseRecord,
} from './lease/lease-inspection.js';
export type { SignalName } from './lease/lease-options.js';
export { DEFAULT_LEASE_TABLE } from './lease/lease-table.js';
export { nonNegativeMs, optionalBoolean, positiveMs } from './option-checks.js';
export { RowCopier } from './row-copier.js';
export type { RedisCommandClient, RedisSegmentStoreOptions } from './segment/redis-segment-store.js';
export type { SegmentCommonOptions } from './segment/segment-options.js';
export type { SegmentGrant, SegmentRequest, SegmentStore } from './segment/segment-store.js';
export { DEFAULT_SEGMENT_TABLE } from './segment/segment-table.js';
export {
  type ResolvedSnowflakeColumns,
  resolveSnowflakeColumns,
  type SnowflakeColumnsWords,
} from './snowflake-columns.js';
export {
  assertSqlClient,
  rewriteSqlPlaceholders,
  SQL_DIALECTS,
  type SqlParam,
  toPostgresPlaceholders,
} from './sql-client.js';
export {
  type MysqlQueryable,
  type PgQueryable,
  requireMethod,
  type SqliteDatabaseLike,
} from './sql-client-drivers.js';
