// The free variables of @snowkey/merge's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code". The databases are the README's: two game
// servers' shards S1 and S2 merged into `target`, or one shard (`source`) re-keyed into `target`.
import type {
  MergeDatabase,
  MergeInputs,
  MergePlan,
  MergeRunOptions,
  MergeSource,
  MergeSqlClient,
} from './src/index.js';
import type { SchemaInfo, TableInfo } from './src/schema.js';

export { layouts } from '@snowkey/core';
export { default as Database } from 'better-sqlite3';
export { default as mysql } from 'mysql2/promise';
export { default as pg } from 'pg';
// Internal names some examples show.
export { copyOrder } from './src/copy-order.js';
export * from './src/index.js';
export { sqlitePath } from './src/open-database.js';
export { readSchema } from './src/read-schema.js';
export {
  type ColumnInfo,
  column,
  type ForeignKeyInfo,
  rowKey,
  type SchemaInfo,
  type TableInfo,
  type UniqueInfo,
} from './src/schema.js';
export { insertRows, quote, selectPage } from './src/sql.js';
export { canonical, decodeKey, encodeKey } from './src/values.js';

/** The shards of servers 1 and 2, the merged database, and the sources as a merge takes them. */
export declare const s1: MergeDatabase;
export declare const s2: MergeDatabase;
export declare const target: MergeDatabase;
export declare const sources: MergeSource[];
/** A shard on AUTO_INCREMENT keys, to re-key into `target`. */
export declare const source: MergeDatabase;
/** Any database opened with openDatabase, and a transaction of one. */
export declare const db: MergeDatabase;
export declare const tx: MergeSqlClient;
/** A merge's inputs, and the options of a run over them. */
export declare const inputs: MergeInputs;
export declare const options: MergeRunOptions;
/** What planMerge reported, and what readSchema read: its `players` table in `table`. */
export declare const plan: MergePlan;
export declare const schema: SchemaInfo;
export declare const table: TableInfo;
