export { applyAdopt } from './adopt/apply-adopt.js';
export {
  type AdoptKeys,
  type AdoptOptions,
  type AdoptPlan,
  type AdoptRefusal,
  type AdoptStep,
  planAdopt,
} from './adopt/plan-adopt.js';
export { BOOKKEEPING_TABLES } from './bookkeeping.js';
export type { MergeDatabase, MergeSession, MergeSqlClient, SqlValue } from './database.js';
export {
  type MysqlPoolLike,
  mysqlDatabase,
  type PgPoolLike,
  pgDatabase,
  type SqliteLike,
  sqliteDatabase,
} from './driver-databases.js';
export {
  AdoptRefusedError,
  DanglingReferenceError,
  DatabaseNotFoundError,
  InvalidKeyError,
  type MergeConflict,
  MergeConflictError,
  MergeInputsChangedError,
  MergeSchemaError,
  MissingDriverError,
} from './errors.js';
export { exportMaps, type MapFormat } from './export-maps.js';
export type { ConstraintFindings } from './merge-analysis.js';
export type { ConflictPolicy, MergeInputs, MergeSource } from './merge-setup.js';
export { type OpenOptions, openDatabase } from './open-database.js';
export { type MergePlan, planMerge, type SourceNodeIds, type TablePlan } from './plan-merge.js';
export type { Interruptions, ProgressEvent } from './progress-ledger.js';
export type { RekeyOptions } from './rekey-setup.js';
export { DEFAULT_RENAME_TEMPLATE, renamed } from './rename-template.js';
export { resetMerge, resetRekey } from './reset.js';
export {
  type MergeCounts,
  type MergeRunOptions,
  type MergeRunResult,
  type MergeTableCounts,
  readMergeTotals,
  runMerge,
} from './run-merge.js';
export { type RekeyRunResult, runRekey } from './run-rekey.js';
export type { SchemaDrift } from './schema-drift.js';
export type { TableVerification, Verification } from './verification.js';
export { verifyMerge } from './verify-merge.js';
export { verifyRekey } from './verify-rekey.js';
