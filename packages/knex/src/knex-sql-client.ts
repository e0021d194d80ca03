import type { SqlParam } from '@snowkey/core';
import { InvalidArgumentError, type SqlClient, type SqlDialect } from '@snowkey/core';
import { rewriteSqlPlaceholders } from '@snowkey/core/adapter';
import type { Knex } from 'knex';
import { knexDialect, SUPPORTED_CLIENTS } from './dialect.js';

const EXPECTED = `a Knex instance (not a transaction) ${SUPPORTED_CLIENTS}`;

/**
 * Core's `SqlClient` over your Knex pool, for leases and segments; a transaction is refused (a
 * lease outlives it).
 *
 * @example
 * import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
 * const lease = await leaseNodeId({ client: knexSqlClient(db), layout: layouts.default });
 * const generator = new Snowflake({ layout: layouts.default, lease });
 */
export function knexSqlClient(knex: Knex): SqlClient {
  const dialect = knexDialect(knex, 'knex', EXPECTED);
  if (knex.isTransaction) throw new InvalidArgumentError('knex', EXPECTED, 'a transaction');
  const run = async (sql: string, params: readonly SqlParam[] = []): Promise<unknown> => {
    const text = rewriteSqlPlaceholders(
      sql,
      () => '?',
      (quoted) => (quoted.includes('?') ? escapeQuestionMarks(dialect, sql, quoted) : quoted),
    );
    return params.length === 0 ? knex.raw(text) : knex.raw(text, params as Knex.RawBinding[]);
  };
  return {
    dialect,
    async query<Row>(sql: string, params?: readonly SqlParam[]): Promise<Row[]> {
      return rowsOf(dialect, await run(sql, params)) as Row[];
    },
    async execute(sql: string, params?: readonly SqlParam[]): Promise<number> {
      return rowCountOf(dialect, await run(sql, params));
    },
  };
}

/**
 * `knex.raw` takes every `?` for a binding, even inside a quoted string; `\\?` escapes one, and
 * Knex removes the backslash again for PostgreSQL and MySQL but not for SQLite, where the
 * backslash would reach the database. So on SQLite such SQL is refused rather than altered.
 */
function escapeQuestionMarks(dialect: SqlDialect, sql: string, quoted: string): string {
  if (dialect === 'sqlite') {
    throw new InvalidArgumentError(
      'sql',
      "SQL whose quoted strings, identifiers and comments hold no '?' (Knex's SQLite client cannot escape one)",
      sql,
    );
  }
  return quoted.replaceAll('?', '\\?');
}

/** The rows of `knex.raw`'s driver result (pg `{ rows }`, mysql `[rows, fields]`, better-sqlite3 rows). */
function rowsOf(dialect: SqlDialect, result: unknown): unknown[] {
  const rows =
    dialect === 'postgres'
      ? (result as { rows?: unknown }).rows
      : dialect === 'mysql'
        ? (result as unknown[])[0]
        : result;
  return Array.isArray(rows) ? rows : [];
}

function rowCountOf(dialect: SqlDialect, result: unknown): number {
  const n =
    dialect === 'postgres'
      ? (result as { rowCount?: unknown }).rowCount
      : dialect === 'mysql'
        ? ((result as unknown[])[0] as { affectedRows?: unknown } | undefined)?.affectedRows
        : (result as { changes?: unknown }).changes;
  return typeof n === 'number' || typeof n === 'bigint' ? Number(n) : 0;
}
