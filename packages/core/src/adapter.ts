// @snowkey/core/adapter: exactly what the ORM adapters, the CLI and the lease stores outside core
// (@snowkey/etcd) import, and applications do not.
// The rules live here once (what a key is, how a generator's ids are taken and checked, how SQL
// placeholders are rewritten, how a node-id lease is fenced), so every adapter applies the same ones.

export { readClock } from './clock.js';
export { int8ArrayParser, PG_INT8_ARRAY_OID, PG_INT8_OID } from './driver-bigint-reads.js';
export { hasExactSqliteIntegers } from './exact-sqlite-integers.js';
export { assertIdGenerator, isIdGenerator, takeId, takeIds } from './id-generator.js';
export { assertKey, generateOrKeep, KEY_EXPECTED, MAX_KEY } from './id-rule.js';
export { holderToken, parseHolderToken } from './lease/holder-token.js';
export {
  type FreeResult,
  inspectSqlLeases,
  type LeaseInspector,
  type LeaseRecord,
} from './lease/lease-inspection.js';
export {
  type NodeLeaseOptions,
  type ResolvedNodeLeaseOptions,
  resolveNodeLeaseOptions,
} from './lease/lease-options.js';
export type { LeaseRelease, LeaseRenewal, LeaseStore } from './lease/lease-store.js';
export { type LeaseGrant, NodeLease } from './lease/node-lease.js';
export { optionalBoolean, positiveMs } from './option-checks.js';
export { assertPeerVersion } from './peer-version.js';
export {
  type ResolvedSnowflakeColumns,
  resolveSnowflakeColumns,
  type SnowflakeColumnsWords,
} from './snowflake-columns.js';
export { rewriteSqlPlaceholders, SQL_DIALECTS, toPostgresPlaceholders } from './sql-client.js';
export { requireMethod } from './sql-client-drivers.js';
