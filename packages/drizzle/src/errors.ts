import { SnowkeyError } from '@snowkey/core';

/**
 * After an upsert, a row could not be found again by the values of its conflict columns, or was
 * found more than once, so the id it holds in the database is unknown. Usual causes: the `set` of
 * `onDuplicateKeyUpdate` rewrote a conflict column, or the row collided on another unique key
 * than the one named in `target` (MySQL's `ON DUPLICATE KEY` fires on any unique key).
 *
 * @example
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
