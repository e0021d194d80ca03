import { SnowkeyError } from '@snowkey/core';

/**
 * `attachSnowflakes` found the Sequelize instance set up so that ids could not be kept exact: a
 * driver setting that rounds BIGINT, SQLite through the `sqlite3` driver, or a dialect snowkey is
 * not tested on. Raised at start-up, never at the first insert. Every problem is listed in
 * `problems`, one per line of the message.
 *
 * @example
 * // SnowflakeConfigError: @snowkey/sequelize cannot keep ids exact on this Sequelize instance:
 * //   - mysql2 returns BIGINT as a rounded Number with `dialectOptions.supportBigNumbers: false`: remove it
 */
export class SnowflakeConfigError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_SNOWFLAKE_CONFIG';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `@snowkey/sequelize cannot keep ids exact on this Sequelize instance:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/**
 * A driver handed back a snowflake or BIGINT key as a JavaScript Number that is not a safe
 * integer, so its exact value is already lost. Reading the attribute fails instead of returning
 * a rounded id.
 *
 * @example
 * // IdPrecisionError: Player.id came back from the driver as the Number 9223372036854776000, which is not a safe integer ...
 */
export class IdPrecisionError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_ID_PRECISION';
  readonly attribute: string;
  readonly received: number;
  constructor(attribute: string, received: number) {
    super(
      `${attribute} came back from the driver as the Number ${received}, which is not a safe integer, so its exact value is lost: keep the driver settings the @snowkey/sequelize README gives (no \`supportBigNumbers: false\`; on SQLite, \`dialectModule: betterSqlite3Module(Database)\`)`,
    );
    this.attribute = attribute;
    this.received = received;
  }
}
