import { SnowkeyError } from '@snowkey/core';

/** The Sequelize instance cannot keep ids exact; `problems` lists why. Raised at start-up. */
export class SnowflakeConfigError extends SnowkeyError {
  override name = 'SnowflakeConfigError';
  override readonly code: string = 'SNOWKEY_SNOWFLAKE_CONFIG';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `@snowkey/sequelize cannot keep ids exact on this Sequelize instance:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/** A driver handed back a key as an unsafe Number, already rounded; the read fails instead. */
export class IdPrecisionError extends SnowkeyError {
  override name = 'IdPrecisionError';
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
