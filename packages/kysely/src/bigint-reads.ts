import { SnowkeyError, type SqlDialect } from '@snowkey/core';
import { int8ArrayParser, MAX_KEY, PG_INT8_ARRAY_OID, PG_INT8_OID } from '@snowkey/core/adapter';
import { type Kysely, sql } from 'kysely';
import { kyselyDialect } from './dialect.js';

/**
 * The part of `pg.types` (pg-types) that {@link pgBigintTypes} reads: the default parsers.
 *
 * @example
 * import pg from 'pg';
 * const types: PgTypeParsers = pg.types;
 */
export interface PgTypeParsers {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown;
}

/**
 * Type parsers for a `pg.Pool` (its `types` option) that read int8 and int8[] as exact `bigint`
 * and leave every other type to pg's defaults. Per pool: `pg.types` itself is not changed.
 *
 * @example
 * import pg from 'pg';
 * const dialect = new PostgresDialect({ pool: new pg.Pool({ connectionString, types: pgBigintTypes(pg.types) }) });
 */
export function pgBigintTypes(types: PgTypeParsers): PgTypeParsers {
  return {
    getTypeParser(oid, format = 'text') {
      if (format === 'text' && oid === PG_INT8_OID) return BigInt;
      // Keep pg's array parsing; its elements come back as strings.
      if (format === 'text' && oid === PG_INT8_ARRAY_OID)
        return int8ArrayParser(types.getTypeParser(oid, 'text'));
      return types.getTypeParser(oid, format);
    },
  };
}

/** What to set on each dialect's driver so that BIGINT reads back as an exact bigint. */
const SETTING: Readonly<Record<SqlDialect, string>> = {
  postgres: 'pass `types: pgBigintTypes(pg.types)` to the pg.Pool',
  mysql: 'pass `typeCast: bigintTypeCast()` to the mysql2 pool',
  sqlite: 'call `defaultSafeIntegers(true)` on the better-sqlite3 Database',
};

/**
 * The driver under a Kysely instance reads BIGINT back as something other than an exact `bigint`:
 * a Number (rounded above 2^53), or a string. Raised by {@link verifyBigintReads} at start-up.
 *
 * @example
 * // BigintReadError: on mysql the driver read 9223372036854775807 back as the Number 9223372036854776000: pass `typeCast: bigintTypeCast()` to the mysql2 pool
 */
export class BigintReadError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_BIGINT_READ';
  readonly dialect: SqlDialect;
  readonly received: unknown;
  constructor(dialect: SqlDialect, received: unknown) {
    const what =
      typeof received === 'number'
        ? `the Number ${received}`
        : typeof received === 'string'
          ? `the string "${received}"`
          : `${received === null ? 'null' : typeof received} ${String(received)}`;
    super(
      `on ${dialect} the driver read ${MAX_KEY} back as ${what}, not an exact bigint: ${SETTING[dialect]}`,
    );
    this.dialect = dialect;
    this.received = received;
  }
}

/**
 * Checks at start-up that `db` reads BIGINT back as an exact `bigint`: it selects 2^63-1 through
 * the pool and throws {@link BigintReadError} (naming the driver setting to add) when the value
 * comes back as a Number (mysql2's and better-sqlite3's default, rounded above 2^53) or a string
 * (pg's default). A plugin cannot see the driver, so this one query is how the set-up is checked.
 *
 * @example
 * const db = new Kysely<Database>({ dialect, plugins: [sk] });
 * await verifyBigintReads(db); // before serving traffic
 */
export async function verifyBigintReads<DB>(db: Kysely<DB>): Promise<void> {
  const dialect = kyselyDialect(db);
  const probe =
    dialect === 'postgres'
      ? sql<{ v: unknown }>`select cast(${sql.lit(MAX_KEY.toString())} as bigint) as v`
      : dialect === 'mysql'
        ? sql<{ v: unknown }>`select cast(${sql.raw(MAX_KEY.toString())} as signed) as v`
        : sql<{ v: unknown }>`select ${sql.raw(MAX_KEY.toString())} as v`;
  const { rows } = await probe.execute(db);
  const value = rows[0]?.v;
  if (value !== MAX_KEY) throw new BigintReadError(dialect, value);
}
