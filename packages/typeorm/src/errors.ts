import { SnowkeyError } from '@snowkey/core';

/**
 * `attachSnowflakes` found the DataSource misconfigured: a snowflake column without a generator,
 * a property not typed `bigint`, or a driver that would round ids. Raised when the DataSource is
 * initialised (or at once, when it already is), never at the first insert. Every problem found is
 * listed, one per line, and kept in `problems`.
 *
 * @example
 * // SnowflakeConfigError: @snowkey/typeorm cannot assign ids on this DataSource:
 * //   - Player.id has no generator: pass `generator` to attachSnowflakes(dataSource, { generator })
 */
export class SnowflakeConfigError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_SNOWFLAKE_CONFIG';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `@snowkey/typeorm cannot assign ids on this DataSource:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/**
 * A driver handed back a snowflake column as a JavaScript Number that is not a safe integer, so
 * its exact value is already lost. Loading fails instead of returning a rounded id; the message
 * names the driver option that makes the value come back exactly.
 *
 * @example
 * // IdPrecisionError: Player.id came back from the driver as the Number 9223372036854776000, above 2^53-1,
 * // so its exact value is lost. mysql2: set `supportBigNumbers: true, bigNumberStrings: true` ...
 */
export class IdPrecisionError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_ID_PRECISION';
  readonly column: string;
  readonly received: number;
  constructor(column: string, received: number) {
    super(
      `${column} came back from the driver as the Number ${received}, which is not a safe integer, so its exact value is lost. ` +
        'Make the driver return BIGINT exactly: mysql2 — keep `supportBigNumbers: true, bigNumberStrings: true` in the DataSource options; ' +
        'better-sqlite3 — set `prepareDatabase: exactSqliteIntegers` in the DataSource options; ' +
        'pg — remove the type parser for INT8 (OID 20) that returns a Number.',
    );
    this.column = column;
    this.received = received;
  }
}
