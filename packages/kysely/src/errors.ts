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
  override readonly code: string = 'SNOWKEY_UNFILLABLE_INSERT';
  readonly table: string;
  readonly column: string;
  constructor(table: string, column: string, reason: string) {
    super(reason);
    this.table = table;
    this.column = column;
  }
}
