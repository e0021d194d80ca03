export type { Interruptions, ProgressEvent } from './batch-loop.js';
export { BOOKKEEPING_TABLES } from './bookkeeping.js';
export type { MergeDatabase, MergeStatements, SqlValue } from './database.js';
export {
  type MysqlPoolLike,
  mysqlDatabase,
  type PgPoolLike,
  pgDatabase,
  type SqliteLike,
  sqliteDatabase,
} from './driver-databases.js';
export {
  DanglingReferenceError,
  MergeConflictError,
  MergeInputsChangedError,
  MergeSchemaError,
  MissingDriverError,
} from './errors.js';
export type { ConflictPolicy, MergeInputs, MergeSource } from './merge-setup.js';
export { openDatabase } from './open-database.js';
export { type MergePlan, planMerge, type SourceNodeIds, type TablePlan } from './plan-merge.js';
export type { RekeyOptions } from './rekey-setup.js';
export {
  type MergeCounts,
  type MergeRunOptions,
  type MergeRunResult,
  readMergeTotals,
  runMerge,
} from './run-merge.js';
export { type RekeyRunResult, runRekey } from './run-rekey.js';
export type { TableVerification, Verification } from './verification.js';
export { verifyMerge } from './verify-merge.js';
export { verifyRekey } from './verify-rekey.js';
