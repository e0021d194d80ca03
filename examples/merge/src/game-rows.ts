import { parseId } from '@snowkey/core';
import type { Knex } from 'knex';
import { keyValue } from './database.js';
import type { TableSpec } from './game-schema.js';

/** A row as the examples carry it: keys as bigint, integers as number, text as string. */
export type GameRow = { id: bigint } & Record<string, bigint | number | string | null>;

/**
 * A driver's row in canonical types: `id`/`ref` columns through `parseId` (exact bigint, never
 * a rounded Number), `int`/`millis` as numbers, text as strings.
 *
 * @example
 * normalizeRow(tableSpec('items'), { id: '7', owner_id: 3n, kind: 'sword', qty: 1n, created_at: 5n });
 * // { id: 7n, owner_id: 3n, kind: 'sword', qty: 1, created_at: 5 }
 */
export function normalizeRow(table: TableSpec, raw: Record<string, unknown>): GameRow {
  const row: Record<string, bigint | number | string | null> = {};
  for (const c of table.columns) {
    const v = raw[c.name];
    if (v === null || v === undefined) {
      if (!c.nullable)
        throw new Error(`${table.name}.${c.name} is NULL in a row read back (id ${String(raw.id)})`);
      row[c.name] = null;
    } else if (c.kind === 'id' || c.kind === 'ref') row[c.name] = parseId(v, `${table.name}.${c.name}`);
    else if (c.kind === 'text') row[c.name] = String(v);
    else row[c.name] = Number(v);
  }
  return row as GameRow;
}

/**
 * One keyset page of `table`: rows with `id > afterId`, in id order.
 *
 * @example
 * const page = await readPage(db, tableSpec('players'), 0n, 500);
 */
export async function readPage(
  db: Knex,
  table: TableSpec,
  afterId: bigint,
  limit: number,
): Promise<GameRow[]> {
  const raw = await db(table.name)
    .select(table.columns.map((c) => c.name))
    .where('id', '>', keyValue(afterId))
    .orderBy('id')
    .limit(limit);
  return raw.map((r: Record<string, unknown>) => normalizeRow(table, r));
}

/**
 * Every row of `table`, in id order, read page by page.
 *
 * @example
 * const players = await readAll(db, tableSpec('players'));
 */
export async function readAll(db: Knex, table: TableSpec, pageSize = 5000): Promise<GameRow[]> {
  const out: GameRow[] = [];
  let after = -1n;
  for (;;) {
    const page = await readPage(db, table, after, pageSize);
    out.push(...page);
    if (page.length < pageSize) return out;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Whether two rows of `table` hold the same values, ignoring the columns in `except`.
 *
 * @example
 * sameRow(spec, a, b, ['name']); // true when only the name differs
 */
export function sameRow(table: TableSpec, a: GameRow, b: GameRow, except: readonly string[] = []): boolean {
  return table.columns.every((c) => except.includes(c.name) || a[c.name] === b[c.name]);
}

/**
 * The number of rows in `table`, as a number.
 *
 * @example
 * await countRows(db, 'players'); // 1200
 */
export async function countRows(db: Knex, table: string): Promise<number> {
  const [row] = await db(table).count({ n: '*' });
  return Number((row as { n: unknown }).n);
}
