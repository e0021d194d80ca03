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
export type { IdGenerator, TimestampFence } from './id-generator.js';
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
export { nodeIdFromEnv, nodeIdFromHostname, nodeIdFromIp } from './node-id.js';
export { type SequenceOverflow, Snowflake, type SnowflakeOptions } from './snowflake.js';
