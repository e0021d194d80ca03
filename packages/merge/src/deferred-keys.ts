import type { SourceRow } from './batch-loop.js';
import type { MergeStatements, SqlValue } from './database.js';
import type { ForeignKeyInfo } from './schema.js';
import { quote } from './sql.js';

/**
 * The columns of `deferred` foreign keys, each once: written NULL by the first pass over a table,
 * and read back and written by the second.
 */
export function deferredColumns(deferred: readonly ForeignKeyInfo[]): string[] {
  return [...new Set(deferred.flatMap((fk) => fk.columns))];
}

/**
 * The second pass over a table: writes the deferred foreign-key columns (inserted as NULL by the
 * first pass, because they may point at rows copied later) of `rows`, one UPDATE per row, found by
 * its key. A row whose deferred columns are all NULL needs none.
 */
export async function writeDeferredKeys(
  tx: MergeStatements,
  table: string,
  key: readonly string[],
  deferred: readonly ForeignKeyInfo[],
  rows: readonly SourceRow[],
): Promise<void> {
  const cols = deferredColumns(deferred);
  const q = (c: string) => quote(tx.dialect, c);
  const sql = `UPDATE ${q(table)} SET ${cols.map((c) => `${q(c)} = ?`).join(', ')} WHERE ${key.map((c) => `${q(c)} = ?`).join(' AND ')}`;
  for (const r of rows) {
    if (cols.every((c) => r[c] === null || r[c] === undefined)) continue;
    await tx.execute(sql, [
      ...cols.map((c) => (r[c] ?? null) as SqlValue),
      ...key.map((c) => r[c] as SqlValue),
    ]);
  }
}
