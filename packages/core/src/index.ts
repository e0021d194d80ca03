export { type Clock, manualClock, monotonicClock } from './clock.js';
export { composeId, type IdParts } from './compose.js';
export { type DecodedId, decode } from './decode.js';
export {
  ClockMovedBackwardsError,
  ClockStalledError,
  InvalidArgumentError,
  InvalidIdError,
  InvalidLayoutError,
  type LayoutFieldReport,
  LeaseExpiredError,
  SnowkeyError,
  TimestampOutOfRangeError,
  WorkerIdLeaseError,
} from './errors.js';
export {
  assertIdGenerator,
  ID_GENERATOR_EXPECTED,
  type IdGenerator,
  isIdGenerator,
  type TimestampFence,
  takeIds,
} from './id-generator.js';
export { idReplacer, idReviver, parseId, toIdString } from './id-string.js';
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
export { leaseNodeId } from './lease/lease-node-id.js';
export type { LeaseNodeIdOptions, SignalName } from './lease/lease-options.js';
export { DEFAULT_LEASE_TABLE, leaseTableDdl } from './lease/lease-table.js';
export { type LeaseState, NodeLease } from './lease/node-lease.js';
export { nodeIdFromEnv, nodeIdFromHostname, nodeIdFromIp } from './node-id.js';
export { type SequenceOverflow, Snowflake, type SnowflakeOptions } from './snowflake.js';
export {
  assertSqlClient,
  rewriteSqlPlaceholders,
  SQL_DIALECTS,
  type SqlClient,
  type SqlDialect,
  type SqlParam,
  toPostgresPlaceholders,
} from './sql-client.js';
export {
  type MysqlQueryable,
  mysqlSqlClient,
  type PgQueryable,
  pgSqlClient,
  type SqliteDatabaseLike,
  sqliteSqlClient,
} from './sql-client-drivers.js';
