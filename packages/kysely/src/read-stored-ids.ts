import { InvalidArgumentError, parseId, UpsertReadBackError } from '@snowkey/core';
import { type Kysely, sql } from 'kysely';
import { assertRowObjects } from './fill-insert.js';

/** Lookups per statement: well under SQLite's 500 compound SELECTs and every parameter limit. */
const LOOKUPS_PER_QUERY = 100;
/** Alias of the row-index column. */
const ROW_ALIAS = 'skrow';

/** Options of {@link readStoredIds}. */
export interface ReadStoredIdsOptions<By extends string, Ids extends string> {
  /** The columns of the unique key the upsert conflicted on. */
  readonly by: readonly By[];
  /** The id columns to read. */
  readonly ids: readonly Ids[];
}

/**
 * The rows of an upsert with the ids the database holds, found by their `by` columns (for MySQL,
 * and for `doNothing()` / `ignore()`, where `RETURNING` gives no row); run it in the upsert's transaction.
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   const rows = sk.withIds('players', [{ name: 'Aria', level: 5 }]);
 *   await trx.insertInto('players').values(rows).onDuplicateKeyUpdate({ level: 5 }).execute();
 *   const [aria] = await readStoredIds(trx, 'players', rows, { by: ['name'], ids: ['id'] });
 *   aria.id; // Aria's id, new or existing
 * });
 */
export async function readStoredIds<R extends object, By extends keyof R & string, Ids extends string>(
  // Table and columns are names the caller passes at run time; Kysely's schema types cannot check them.
  // biome-ignore lint/suspicious/noExplicitAny: any Kysely instance or transaction, whatever its schema
  db: Kysely<any>,
  table: string,
  rows: readonly R[],
  options: ReadStoredIdsOptions<By, Ids>,
): Promise<Array<Omit<R, Ids> & { [C in Ids]: bigint }>> {
  const { by, ids } = options ?? ({} as ReadStoredIdsOptions<By, Ids>);
  if (!Array.isArray(by) || by.length === 0) {
    throw new InvalidArgumentError('options.by', 'a non-empty array of the conflict columns', by);
  }
  if (!Array.isArray(ids) || ids.length === 0) {
    throw new InvalidArgumentError('options.ids', 'a non-empty array of id columns', ids);
  }
  assertRowObjects(table, rows);
  const out = rows.map((row) => ({ ...row }) as Record<string, unknown>);
  const lookups = out.flatMap((row, index) =>
    by.every((c) => row[c] !== undefined && row[c] !== null) ? [{ index, row }] : [],
  );
  const matches = new Map<number, number>();
  for (let start = 0; start < lookups.length; start += LOOKUPS_PER_QUERY) {
    const selects = lookups.slice(start, start + LOOKUPS_PER_QUERY).map(({ index, row }) => {
      let query = db
        .selectFrom(table)
        // `index` is an integer this function made, never input: safe as a literal.
        .select([sql.lit(index).as(ROW_ALIAS), ...ids.map((c) => sql.ref(c).as(c))]);
      for (const c of by) query = query.where(sql.ref(c), '=', row[c]);
      return query;
    });
    const [first, ...rest] = selects;
    if (!first) continue;
    const found = (await rest.reduce((q, next) => q.unionAll(next), first).execute()) as Record<
      string,
      unknown
    >[];
    for (const hit of found) {
      const index = Number(hit[ROW_ALIAS]);
      matches.set(index, (matches.get(index) ?? 0) + 1);
      for (const c of ids) {
        out[index]![c] = parseId(hit[c], `${table}.${c}`);
      }
    }
  }
  for (const { index } of lookups) {
    const n = matches.get(index) ?? 0;
    if (n !== 1) throw new UpsertReadBackError(table, index, by, n);
  }
  return out as Array<Omit<R, Ids> & { [C in Ids]: bigint }>;
}
