import { ConnectionInTransactionError, InvalidArgumentError } from './errors.js';
import { type SqlClient, type SqlParam, toPostgresPlaceholders } from './sql-client.js';

/** What {@link pgSqlClient} needs of a `pg` Pool, PoolClient or Client. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** What {@link mysqlSqlClient} needs of a `mysql2` Pool or Connection. */
export interface MysqlQueryable {
  query(sql: string, values?: unknown[]): Promise<[unknown, unknown]> | unknown;
  promise?(): MysqlQueryable;
}

/** What {@link sqliteSqlClient} needs of a `better-sqlite3` Database. */
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
 * A {@link SqlClient} over a `pg` Pool, or a Client the application opens no transaction on.
 *
 * @example
 * const lease = await leaseNodeId({ client: pgSqlClient(pool), layout: layouts.default });
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
 * A {@link SqlClient} over a `mysql2` pool, or a Connection the application opens no transaction on.
 *
 * @example
 * const client = mysqlSqlClient(mysql.createPool({ uri: process.env.DATABASE_URL }));
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
 * A {@link SqlClient} over a `better-sqlite3` Database, the application's own included: inside its
 * transaction a statement is refused with a {@link ConnectionInTransactionError}.
 *
 * @example
 * const client = sqliteSqlClient(db);
 */
export function sqliteSqlClient(db: SqliteDatabaseLike): SqlClient {
  requireMethod(db, 'prepare', 'sqliteSqlClient(db)', 'a better-sqlite3 Database');
  // Refused, not joined: a lease renewal or segment rolled back with the application's transaction
  // would hand its ids out twice. Check and statement run in one synchronous step.
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

/** Checks that a driver object from the user has `method`, or throws an {@link InvalidArgumentError}. */
export function requireMethod(value: unknown, method: string, argument: string, expected: string): void {
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof (value as Record<string, unknown>)[method] !== 'function'
  ) {
    throw new InvalidArgumentError(argument, `${expected} (an object with a ${method}() method)`, value);
  }
}
