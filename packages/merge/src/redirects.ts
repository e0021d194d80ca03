import type { SourceRow } from './batch-loop.js';
import { BOOKKEEPING_TABLES } from './bookkeeping.js';
import type { MergeStatements, SqlValue } from './database.js';
import type { ForeignKeyInfo } from './schema.js';
import { decodeKey, encodeKey } from './values.js';

/**
 * Rows left out under a skip policy are stood in for by the target row that holds their unique
 * value: a reference to a left-out row is written as a reference to that row. This rewrites the
 * foreign-key values of `rows` (in place) for the given foreign keys.
 */
export class Redirects {
  readonly #any = new Map<string, boolean>();
  readonly #parentKeys: ReadonlyMap<string, readonly string[]>;

  constructor(parentKeys: ReadonlyMap<string, readonly string[]>) {
    this.#parentKeys = parentKeys;
  }

  async apply(
    tx: MergeStatements,
    source: number,
    table: string,
    fks: readonly ForeignKeyInfo[],
    rows: SourceRow[],
  ): Promise<void> {
    for (const fk of fks) {
      const parentKey = this.#parentKeys.get(fk.refTable);
      // Only references to the parent's key can point at a left-out row; one to its unique value
      // finds the row that holds the value as it is.
      if (!parentKey || [...fk.refColumns].sort().join() !== [...parentKey].sort().join()) continue;
      if (!(await this.#has(tx, source, fk.refTable, fk.refTable === table))) continue;
      const order = parentKey.map((c) => fk.columns[fk.refColumns.indexOf(c)]!);
      const refs = new Map<string, SourceRow[]>();
      for (const row of rows) {
        const values = order.map((c) => row[c]);
        if (values.some((v) => v === null || v === undefined)) continue;
        const k = encodeKey(values);
        const list = refs.get(k);
        if (list) list.push(row);
        else refs.set(k, [row]);
      }
      if (refs.size === 0) continue;
      const keys = [...refs.keys()];
      const found = await tx.query<{ row_key: string; target_key: string }>(
        `SELECT row_key, target_key FROM ${BOOKKEEPING_TABLES.skips} WHERE table_name = ? AND source_position = ? AND row_key IN (${keys.map(() => '?').join(', ')})`,
        [fk.refTable, source, ...keys],
      );
      for (const f of found) {
        const to = decodeKey(f.target_key);
        for (const row of refs.get(f.row_key) ?? []) {
          order.forEach((c, i) => {
            row[c] = to[i] as SqlValue;
          });
        }
      }
    }
  }

  /** Whether `table` of `source` has left-out rows; asked once per parent, always for a self-reference. */
  async #has(tx: MergeStatements, source: number, table: string, self: boolean): Promise<boolean> {
    const id = `${source}\u0000${table}`;
    if (!self && this.#any.has(id)) return this.#any.get(id)!;
    const rows = await tx.query(
      `SELECT 1 AS x FROM ${BOOKKEEPING_TABLES.skips} WHERE table_name = ? AND source_position = ? LIMIT 1`,
      [table, source],
    );
    if (!self) this.#any.set(id, rows.length > 0);
    return rows.length > 0;
  }
}
