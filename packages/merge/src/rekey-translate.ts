import type { SourceRow } from './batch-loop.js';
import { BOOKKEEPING_TABLES } from './bookkeeping.js';
import type { MergeStatements } from './database.js';
import { DanglingReferenceError } from './errors.js';
import type { KeyColumn } from './rekey-setup.js';
import { canonical } from './values.js';

/**
 * Rewrites, in place, each listed column of `rows` from the old key it holds to the new id of
 * the row it points at, read from the mapping table (in `tx`, so this batch's own rows count).
 * A value that maps to nothing is a {@link DanglingReferenceError}.
 */
export async function translateKeys(
  tx: MergeStatements,
  table: string,
  rows: SourceRow[],
  columns: readonly KeyColumn[],
): Promise<void> {
  const byTable = new Map<string, string[]>();
  for (const kc of columns) byTable.set(kc.refTable, [...(byTable.get(kc.refTable) ?? []), kc.column]);
  for (const [refTable, cols] of byTable) {
    const old = new Map<string, unknown>();
    for (const r of rows) {
      for (const c of cols) {
        const v = r[c];
        if (v !== null && v !== undefined) old.set(canonical(v)!, v);
      }
    }
    if (old.size === 0) continue;
    const mapped = new Map<string, bigint>();
    const values = [...old.values()];
    for (let i = 0; i < values.length; i += 1000) {
      const chunk = values.slice(i, i + 1000) as bigint[];
      const found = await tx.query<{ old_id: bigint; new_id: bigint }>(
        `SELECT old_id, new_id FROM ${BOOKKEEPING_TABLES.rekeyMap} WHERE table_name = ? AND old_id IN (${chunk.map(() => '?').join(', ')})`,
        [refTable, ...chunk],
      );
      for (const f of found) mapped.set(canonical(f.old_id)!, BigInt(f.new_id));
    }
    for (const r of rows) {
      for (const c of cols) {
        const v = r[c];
        if (v === null || v === undefined) continue;
        const to = mapped.get(canonical(v)!);
        if (to === undefined) throw new DanglingReferenceError(table, c, v, refTable);
        r[c] = to;
      }
    }
  }
}
