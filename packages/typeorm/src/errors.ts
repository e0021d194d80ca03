import { SnowkeyError } from '@snowkey/core';

/** The DataSource cannot assign ids; `problems` lists why. Raised at initialisation, never at an insert. */
export class SnowflakeConfigError extends SnowkeyError {
  override name = 'SnowflakeConfigError';
  override readonly code: string = 'SNOWKEY_SNOWFLAKE_CONFIG';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `@snowkey/typeorm cannot assign ids on this DataSource:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/** A driver handed back a key as an unsafe Number, already rounded; loading fails, naming the fix. */
export class IdPrecisionError extends SnowkeyError {
  override name = 'IdPrecisionError';
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
