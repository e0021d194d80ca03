import { parseId, UpsertReadBackError } from '@snowkey/core';
import type { Knex } from 'knex';
import type { Row } from './fill-ids.js';

/** Lookups per statement: well under SQLite's 500 compound SELECTs and every parameter limit. */
const LOOKUPS_PER_QUERY = 100;
/** Alias of the row-index column: one lowercase word, left alone by snake/camel case mappers. */
const ROW_ALIAS = 'skrow';

/**
 * The rows of an upsert with the ids the database holds, each found by its conflict columns as the
 * database compares them (its collation decides, as for the conflict); NULL ones keep theirs.
 */
export async function readBackIds(
  trx: Knex.Transaction,
  table: string,
  idColumns: readonly string[],
  conflictColumns: readonly string[],
  rows: readonly Row[],
  inPlace: boolean,
): Promise<Row[]> {
  const out = inPlace ? [...rows] : rows.map((row) => ({ ...row }));
  const lookups = out
    .map((row, index) => ({ index, where: pick(row, conflictColumns) }))
    .filter((l): l is { index: number; where: Row } => l.where !== undefined);
  const matches = new Map<number, number>();
  for (let start = 0; start < lookups.length; start += LOOKUPS_PER_QUERY) {
    const selects = lookups.slice(start, start + LOOKUPS_PER_QUERY).map(({ index, where }) =>
      // `index` is an integer this function made, never input: safe as a literal.
      trx(table)
        .select(trx.raw(`${index} as ??`, [ROW_ALIAS]), ...idColumns)
        .where(where),
    );
    const [first, ...rest] = selects;
    if (!first) continue;
    const found: Row[] = rest.length > 0 ? await first.unionAll(rest) : await first;
    for (const hit of found) {
      const index = Number(hit[ROW_ALIAS]);
      matches.set(index, (matches.get(index) ?? 0) + 1);
      const row = out[index]!;
      for (const column of idColumns) row[column] = parseId(hit[column], `${table}.${column}`);
    }
  }
  for (const { index } of lookups) {
    const n = matches.get(index) ?? 0;
    if (n !== 1) throw new UpsertReadBackError(table, index, conflictColumns, n);
  }
  return out;
}

/** The row's values of `columns`, or undefined when one is NULL (such a row cannot conflict). */
function pick(row: Row, columns: readonly string[]): Row | undefined {
  const where: Row = {};
  for (const column of columns) {
    const value = row[column];
    if (value === undefined || value === null) return undefined;
    where[column] = value;
  }
  return where;
}
