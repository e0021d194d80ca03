import { ConnectionInTransactionError, InvalidArgumentError } from './errors.js';
import { type SqlClient, type SqlParam, toPostgresPlaceholders } from './sql-client.js';

/**
 * What {@link pgSqlClient} needs of a `pg` Pool, PoolClient or Client.
 *
 * @example
 * const pool: PgQueryable = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * What {@link mysqlSqlClient} needs of a `mysql2/promise` Pool or Connection (or a callback pool with `.promise()`).
 *
 * @example
 * const pool: MysqlQueryable = mysql.createPool({ uri: process.env.DATABASE_URL });
 */
export interface MysqlQueryable {
  query(sql: string, values?: unknown[]): Promise<[unknown, unknown]> | unknown;
  promise?(): MysqlQueryable;
}

/**
 * What {@link sqliteSqlClient} needs of a `better-sqlite3` Database.
 *
 * @example
 * const db: SqliteDatabaseLike = new Database('app.db');
 */
export interface SqliteDatabaseLike {
  /** Whether the connection is inside a transaction (better-sqlite3 asks SQLite itself). */
  readonly inTransaction: boolean;
  prepare(sql: string): {
    readonly reader: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number };
  };
}

/**
 * A {@link SqlClient} over a `pg` Pool (or Client). BIGINT comes back as strings, which core reads exactly.
 * Each statement of a Pool takes a connection of its own; a Client must be one the application opens
 * no transaction on, since a statement sent during one would run inside it.
 *
 * @example
 * import pg from 'pg';
 * const client = pgSqlClient(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * const lease = await leaseNodeId({ client, layout: layouts.default });
 */
export function pgSqlClient(pool: PgQueryable): SqlClient {
  requireMethod(pool, 'query', 'pgSqlClient(pool)', 'a pg Pool, PoolClient or Client');
  const run = (sql: string, params: readonly SqlParam[] = []) =>
    pool.query(toPostgresPlaceholders(sql), params.map(bigintToString));
  return {
    dialect: 'postgres',
    query: async <Row>(sql: string, params?: readonly SqlParam[]) => (await run(sql, params)).rows as Row[],
    execute: async (sql, params) => (await run(sql, params)).rowCount ?? 0,
  };
}

/**
 * A {@link SqlClient} over a `mysql2` pool (promise pool, or callback pool through its `.promise()`).
 * Works on MySQL and MariaDB. Core's own columns fit a number, so `supportBigNumbers` is optional here
 * (your application needs it for BIGINT ids). A single Connection must be one the application opens no
 * transaction on, since a statement sent during one would run inside it.
 *
 * @example
 * import mysql from 'mysql2/promise';
 * const client = mysqlSqlClient(mysql.createPool({ uri: process.env.DATABASE_URL, supportBigNumbers: true, bigNumberStrings: true }));
 */
export function mysqlSqlClient(pool: MysqlQueryable): SqlClient {
  requireMethod(pool, 'query', 'mysqlSqlClient(pool)', 'a mysql2 Pool or Connection');
  // A callback-style mysql2 pool has .promise(); a promise pool does not.
  const p = typeof pool.promise === 'function' ? pool.promise() : pool;
  const run = async (sql: string, params: readonly SqlParam[] = []) => {
    const [result] = (await p.query(sql, params.map(bigintToString))) as [unknown, unknown];
    return result;
  };
  return {
    dialect: 'mysql',
    query: async <Row>(sql: string, params?: readonly SqlParam[]) => {
      const rows = await run(sql, params);
      return (Array.isArray(rows) ? rows : []) as Row[];
    },
    execute: async (sql, params) => {
      const header = (await run(sql, params)) as { affectedRows?: number } | undefined;
      return header?.affectedRows ?? 0;
    },
  };
}

/**
 * A {@link SqlClient} over a `better-sqlite3` Database. Statements run synchronously inside; several
 * processes may share the file (each write is one atomic statement; better-sqlite3 waits 5 s on a
 * locked database by default).
 *
 * The connection may be the application's own: while it is inside a transaction (one the
 * application opened with `BEGIN`, say), every statement is refused with a
 * {@link ConnectionInTransactionError} instead of joining it, since a lease renewal or a segment
 * rolled back with it would let its ids be handed out twice. The check and the statement run in one
 * synchronous step, so no transaction can open between them.
 *
 * @example
 * import Database from 'better-sqlite3';
 * const client = sqliteSqlClient(new Database('app.db'));
 */
export function sqliteSqlClient(db: SqliteDatabaseLike): SqlClient {
  requireMethod(db, 'prepare', 'sqliteSqlClient(db)', 'a better-sqlite3 Database');
  const prepare = (sql: string) => {
    if (db.inTransaction === true) throw new ConnectionInTransactionError('sqlite', sql);
    return db.prepare(sql);
  };
  return {
    dialect: 'sqlite',
    query: async <Row>(sql: string, params: readonly SqlParam[] = []) => prepare(sql).all(...params) as Row[],
    execute: async (sql, params = []) => prepare(sql).run(...params).changes,
  };
}

function bigintToString(v: SqlParam): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

/**
 * Checks that `value` has `method` (a driver object passed in by the user), or throws an
 * {@link InvalidArgumentError} naming `argument` and what was expected.
 */
export function requireMethod(value: unknown, method: string, argument: string, expected: string): void {
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof (value as Record<string, unknown>)[method] !== 'function'
  ) {
    throw new InvalidArgumentError(argument, `${expected} (an object with a ${method}() method)`, value);
  }
}
