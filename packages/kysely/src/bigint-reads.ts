import { SnowkeyError, type SqlDialect } from '@snowkey/core';
import { int8ArrayParser, MAX_KEY, PG_INT8_ARRAY_OID, PG_INT8_OID } from '@snowkey/core/adapter';
import { type Kysely, sql } from 'kysely';
import { kyselyDialect } from './dialect.js';

/** The part of `pg.types` (pg-types) that {@link pgBigintTypes} reads: the default parsers. */
export interface PgTypeParsers {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown;
}

/**
 * Type parsers for a `pg.Pool`'s `types` that read int8 and int8[] as exact `bigint` (`pg.types` untouched).
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

/** The driver reads BIGINT back as a Number (rounded above 2^53) or a string, not an exact `bigint`. */
export class BigintReadError extends SnowkeyError {
  override name = 'BigintReadError';
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
 * Checks at start-up that `db` reads 2^63-1 back exactly, or throws {@link BigintReadError} naming
 * the driver setting to add (a plugin cannot see the driver, so one query checks it).
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
