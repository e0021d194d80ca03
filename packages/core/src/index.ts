export { type Clock, manualClock, monotonicClock } from './clock.js';
export { composeId, type IdParts } from './compose.js';
export { type DecodedId, decode } from './decode.js';
export { bigintTypeCast, type TypeCast, type TypeCastField } from './driver-bigint-reads.js';
export {
  ClockMovedBackwardsError,
  ClockStalledError,
  ConnectionInTransactionError,
  InvalidArgumentError,
  InvalidIdError,
  InvalidLayoutError,
  InvalidPublicIdError,
  type LayoutFieldReport,
  LeaseExpiredError,
  SnowkeyError,
  TimestampOutOfRangeError,
  UpsertReadBackError,
  WorkerIdLeaseError,
} from './errors.js';
export { exactSqliteIntegers } from './exact-sqlite-integers.js';
export type { IdGenerator, TimestampFence } from './id-generator.js';
export { idRangeForTime } from './id-range-for-time.js';
export { type IdString, idReplacer, idReviver, isIdString, parseId, toIdString } from './id-string.js';
export {
  DEFAULT_EPOCH,
  defineLayout,
  type Layout,
  type LayoutSpec,
  layoutEndsAt,
  layoutSpec,
  type NodeField,
  withEpoch,
} from './layout.js';
export { type LayoutName, layouts } from './layouts.js';
export { LeaseFreeRefusedError } from './lease/lease-inspection.js';
export { leaseNodeId } from './lease/lease-node-id.js';
export type { LeaseNodeIdOptions, SignalName } from './lease/lease-options.js';
export type { LeaseEvent, LeaseStats } from './lease/lease-stats.js';
export { leaseTableDdl } from './lease/lease-table.js';
export type { LeaseState, NodeLease } from './lease/node-lease.js';
export { kubernetesPodIndex } from './lease/pod-index.js';
export { nodeIdFromEnv } from './node-id.js';
export { type HealthError, type HealthParts, type SnowkeyHealth, snowkeyHealth } from './observe/health.js';
export type { LastError } from './observe/listeners.js';
export { UnsupportedPeerError } from './peer-version.js';
export {
  type PublicId,
  type PublicIdCodec,
  type PublicIdOptions,
  publicIdCodec,
} from './public-id/public-id-codec.js';
export { type IdRange, shardIdRange } from './segment/id-range.js';
export {
  type RedisCommandClient,
  type RedisSegmentStoreOptions,
  redisSegmentStore,
} from './segment/redis-segment-store.js';
export type { SegmentRunway } from './segment/runway.js';
export { SegmentAllocator } from './segment/segment-allocator.js';
export {
  IdRangeExhaustedError,
  SegmentStoreError,
  SegmentUnavailableError,
  type SegmentUnavailableReason,
} from './segment/segment-errors.js';
export type { SegmentAllocatorOptions } from './segment/segment-options.js';
export type { SegmentEvent, SegmentStats } from './segment/segment-stats.js';
export type { SegmentGrant, SegmentRequest, SegmentStore } from './segment/segment-store.js';
export { segmentTableDdl } from './segment/segment-table.js';
export { type NodeIdSource, type SequenceOverflow, Snowflake, type SnowflakeOptions } from './snowflake.js';
export type { SnowflakeEvent, SnowflakeStats } from './snowflake-stats.js';
export type { SqlClient, SqlDialect, SqlParam } from './sql-client.js';
export {
  type MysqlQueryable,
  mysqlSqlClient,
  type PgQueryable,
  pgSqlClient,
  type SqliteDatabaseLike,
  sqliteSqlClient,
} from './sql-client-drivers.js';
export {
  DATABASE_HOLDER,
  DEFAULT_SQL_NODES_TABLE,
  type SqlGeneratorOptions,
  type SqlScript,
  sqlGeneratorScript,
  sqlGeneratorUninstallScript,
} from './sql-generator/sql-generator.js';
export {
  registerSqliteNextId,
  type SqliteFunctionHost,
  type SqliteNextIdSource,
} from './sql-generator/sqlite-next-id.js';
export { sqliteKeyGuardDdl } from './sqlite-key-guard.js';
