import { SnowkeyError } from '@snowkey/core';

/**
 * An INSERT the plugin cannot give ids to, refused before it runs: an `INSERT ... SELECT` leaving a
 * snowflake column out, or a snowflake column holding an SQL expression the id rule cannot check.
 */
export class UnfillableInsertError extends SnowkeyError {
  override name = 'UnfillableInsertError';
  override readonly code: string = 'SNOWKEY_UNFILLABLE_INSERT';
  readonly table: string;
  readonly column: string;
  constructor(table: string, column: string, reason: string) {
    super(reason);
    this.table = table;
    this.column = column;
  }
}
