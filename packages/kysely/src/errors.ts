import { SnowkeyError } from '@snowkey/core';

/**
 * An INSERT the plugin cannot give ids to, refused before it runs: an `INSERT ... SELECT`
 * (`insertInto(t).columns([...]).expression(select)`) that leaves a snowflake column out (the rows
 * come from the database, so there is nothing to fill before the INSERT), or a row whose snowflake
 * column holds an SQL expression instead of a value (the one rule for a caller's id cannot check it).
 *
 * @example
 * await db.insertInto('players').columns(['name']).expression(db.selectFrom('signups').select('name')).execute();
 * // UnfillableInsertError: INSERT ... SELECT into "players" leaves out its snowflake column "id" ...
 */
export class UnfillableInsertError extends SnowkeyError {
  readonly table: string;
  readonly column: string;
  constructor(table: string, column: string, reason: string) {
    super(reason);
    this.table = table;
    this.column = column;
  }
}

/**
 * After an upsert, a row could not be found again by the values of its conflict columns, or was
 * found more than once, so the id it holds in the database is unknown. Raised by
 * {@link readStoredIds}; run it in the upsert's transaction, which then writes nothing. Usual
 * causes: the update rewrote a conflict column, or on MySQL the row collided on a different
 * unique key than the one named.
 *
 * @example
 * await readStoredIds(trx, 'players', rows, { by: ['name'], ids: ['id'] });
 * // UpsertReadBackError: after the upsert into "players", row 0 matched 0 rows by name (expected exactly 1), so its stored id is unknown
 */
export class UpsertReadBackError extends SnowkeyError {
  readonly table: string;
  readonly rowIndex: number;
  readonly conflictColumns: readonly string[];
  readonly matches: number;
  constructor(table: string, rowIndex: number, conflictColumns: readonly string[], matches: number) {
    super(
      `after the upsert into "${table}", row ${rowIndex} matched ${matches} rows by ${conflictColumns.join(', ')} (expected exactly 1), so its stored id is unknown`,
    );
    this.table = table;
    this.rowIndex = rowIndex;
    this.conflictColumns = conflictColumns;
    this.matches = matches;
  }
}
