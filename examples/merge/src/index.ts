export {
  type AutoIncrementContrastOptions,
  type AutoIncrementContrastResult,
  runAutoIncrementContrast,
} from './autoincrement-contrast.js';
export {
  EXAMPLE_FLAGS_HELP,
  type ExampleDefaults,
  type ExampleOptions,
  parseExampleArgs,
  withoutSeparator,
} from './cli-options.js';
export { openCounterClient } from './counter-client.js';
export {
  type DatabaseRef,
  type Dialect,
  dialectOfUrl,
  keyValue,
  keyValues,
  openDatabase,
  sqliteFilename,
  sqlitePool,
} from './database.js';
export { createFreshDatabase, type DatabaseHost, dropDatabase, withDatabase } from './database-host.js';
export { loadRepositoryEnv } from './dot-env.js';
export { type ExampleCli, runExampleCli } from './example-cli.js';
export { countRows, type GameRow, normalizeRow, readAll, readPage, sameRow } from './game-rows.js';
export {
  type ColumnKind,
  type ColumnSpec,
  foreignKeys,
  GAME_TABLES,
  type GameTable,
  type TableSpec,
  tableSpec,
} from './game-schema.js';
export type { GameWriter, NewGuild, NewItem, NewMail, NewMembership, NewPlayer } from './game-writer.js';
export { keyRange } from './key-range.js';
export {
  GAME_POLICIES,
  type GameMergeOptions,
  type GameSource,
  type GameVerification,
  mergeGame,
  type RenameRecord,
} from './merge-game.js';
export {
  allSettled,
  type MergeScenarioOptions,
  type MergeScenarioResult,
  runMergeScenario,
  type ShardPlayer,
  withDatabases,
} from './merge-scenario.js';
export { NameDrawer, seededRandom } from './names.js';
export { plainSnowflakePlayer } from './plain-player.js';
export { PlainSqlWriter } from './plain-sql-writer.js';
export { parsePlayShardArgs, runPlayShardCli } from './play-shard-cli.js';
export { type PlayOptions, type PlayStats, playShard } from './play-simulator.js';
export { type RekeyedMerge, rekeyAndMerge } from './rekey-contrast.js';
export {
  formatAutoIncrementReport,
  formatMergeReport,
  formatSegmentReport,
  formatTicketReport,
  formatVerification,
  progressPrinter,
  table,
} from './report.js';
export { createGameSchema, createMissingGameTables, gameSchemaSql, type KeyScheme } from './schema-sql.js';
export {
  runSegmentContrast,
  SEGMENT_SLICES,
  SEGMENT_TABLE,
  type SegmentContrastOptions,
  type SegmentPhase,
  type SegmentScheme,
  segmentSlice,
} from './segment-contrast.js';
export { createGameDatabase, createShards, type Shard } from './shards.js';
export { spawnedPlayer } from './spawned-player.js';
export { TicketCounter } from './ticket-counter.js';
export {
  runTicketServerContrast,
  type TicketPhase,
  type TicketServerContrastOptions,
} from './ticket-server-contrast.js';
