import { InvalidArgumentError, UpsertReadBackError } from '@snowkey/core';
import { and, type Column, eq, getTableColumns, getTableName, is, SQL, sql } from 'drizzle-orm';
import type { MySqlColumn, MySqlDatabase, MySqlTable } from 'drizzle-orm/mysql-core';

/** Lookups per statement, as in the Knex adapter: far from any packet or parameter limit. */
const LOOKUPS_PER_QUERY = 100;

/** Which column holds the id to read back, and which columns an upserted row is found again by. */
export interface StoredIdsOptions {
  /** The snowflake column whose stored value is wanted. */
  id: MySqlColumn;
  /** The columns of the unique key the rows conflicted on, as in `onConflictDoUpdate({ target })`. */
  target: MySqlColumn | readonly MySqlColumn[];
}

/**
 * The id each row holds after an upsert on MySQL/MariaDB, in input order (`$returningId()` reports
 * the ids the INSERT would have used); run it in the upsert's transaction.
 *
 * @example
 * import { storedIds } from '@snowkey/drizzle/mysql-core';
 *
 * const rows = [{ name: 'Aria', level: 5 }, { name: 'Bo', level: 1 }];
 * const ids = await db.transaction(async (tx) => {
 *   await tx.insert(players).values(rows).onDuplicateKeyUpdate({ set: { level: sql`values(${players.level})` } });
 *   return storedIds(tx, players, rows, { id: players.id, target: players.name });
 * });
 * ids[0]; // Aria's id: the one she already had, if she was there
 */
export async function storedIds<TTable extends MySqlTable>(
  // biome-ignore lint/suspicious/noExplicitAny: a database or transaction on any MySQL driver and schema.
  db: MySqlDatabase<any, any, any>,
  table: TTable,
  rows: readonly TTable['$inferInsert'][],
  options: StoredIdsOptions,
): Promise<bigint[]> {
  // Each row is found again by its `target` columns, compared by the database itself, so its
  // collation decides as it did for the conflict.
  const tableName = getTableName(table);
  const keyOf = columnKeys(table);
  keyOf(options.id, 'options.id');
  const targets = (Array.isArray(options.target) ? options.target : [options.target]) as MySqlColumn[];
  if (targets.length === 0)
    throw new InvalidArgumentError('options.target', 'a column or a non-empty array of columns', []);
  const targetKeys = targets.map((c, i) => keyOf(c, `options.target[${i}]`));
  if (!Array.isArray(rows))
    throw new InvalidArgumentError('rows', 'an array of the rows given to values()', rows);

  const lookups = (rows as readonly Record<string, unknown>[]).map(
    (row, index) =>
      and(
        ...targets.map((column, t) => {
          const value = row?.[targetKeys[t]!];
          if (value === undefined || value === null || is(value, SQL)) {
            throw new InvalidArgumentError(
              `rows[${index}].${targetKeys[t]}`,
              'a value: a row is found again by its conflict columns, and NULL, a missing value or an SQL expression cannot be looked up',
              value,
            );
          }
          return eq(column, value);
        }),
      )!,
  );

  const ids: (bigint | undefined)[] = new Array(rows.length);
  const matches = new Array<number>(rows.length).fill(0);
  for (let start = 0; start < lookups.length; start += LOOKUPS_PER_QUERY) {
    // One flat UNION ALL (Drizzle's own unionAll nests each pair in parentheses, which MariaDB
    // refuses past a nesting depth). The row's index is a number this function made, never input.
    const selects = lookups
      .slice(start, start + LOOKUPS_PER_QUERY)
      .map(
        (where, i) =>
          sql`select ${sql.raw(String(start + i))} as skrow, ${options.id} as skid from ${table} where ${where}`,
      );
    const [found] = (await db.execute(sql.join(selects, sql` union all `))) as unknown as [
      { skrow: unknown; skid: unknown }[],
    ];
    for (const hit of found) {
      const row = Number(hit.skrow);
      matches[row] = (matches[row] ?? 0) + 1;
      ids[row] = options.id.mapFromDriverValue(hit.skid) as bigint;
    }
  }
  for (const [index, n] of matches.entries()) {
    if (n !== 1)
      throw new UpsertReadBackError(
        tableName,
        index,
        targets.map((c) => c.name),
        n,
      );
  }
  return ids as bigint[];
}

/** The property key of a column in `table` (what rows use), or an error naming `argument`. */
function columnKeys(table: MySqlTable) {
  const entries = Object.entries(getTableColumns(table)) as [string, Column][];
  return (column: unknown, argument: string): string => {
    const entry = entries.find(([, c]) => c === column);
    if (!entry) {
      throw new InvalidArgumentError(
        argument,
        `a column of table "${getTableName(table)}" (one of ${entries.map(([k]) => k).join(', ')})`,
        column,
      );
    }
    return entry[0];
  };
}
