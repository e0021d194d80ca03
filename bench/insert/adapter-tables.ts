import { VARIANT_TABLE, type Variant } from './adapters/adapter-bench.js';
import type { BenchDatabase } from './bench-database.js';
import { createTableSql, type KeyKind } from './key-kinds.js';

/** Each variant's key kind: the recommended form (on SQLite the guarded rowid) but for autoincrement. */
const KIND: Readonly<Record<Variant, KeyKind>> = {
  autoincrement: 'autoincrement',
  'hand-set': 'snowkey-guarded',
  snowkey: 'snowkey-guarded',
};

/** Creates (or empties) the three tables the ORMs write to, the same payload columns as the raw load. */
export async function resetAdapterTables(db: BenchDatabase): Promise<void> {
  for (const [variant, table] of Object.entries(VARIANT_TABLE) as [Variant, string][]) {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    for (const sql of createTableSql(db.dialect, KIND[variant], table)) await db.exec(sql);
  }
}
