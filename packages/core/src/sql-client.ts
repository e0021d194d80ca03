import { InvalidArgumentError } from './errors.js';

/**
 * The SQL dialects snowkey writes SQL for.
 *
 * @example
 * const dialect: SqlDialect = 'postgres';
 */
export type SqlDialect = 'postgres' | 'mysql' | 'sqlite';

/**
 * The dialects, in order; anything else is refused.
 *
 * @example
 * SQL_DIALECTS.includes(process.env.DIALECT as SqlDialect); // false for 'mssql'
 */
export const SQL_DIALECTS: readonly SqlDialect[] = Object.freeze(['postgres', 'mysql', 'sqlite']);

/**
 * A bound parameter. Core binds only these; a factory converts them as its driver needs.
 *
 * @example
 * const params: SqlParam[] = [nodeId, holder, 1767225600000, 175928847299117063n, null];
 */
export type SqlParam = string | number | bigint | null;

/**
 * The one interface between core and a database: the worker-id leases and the
 * {@link SegmentAllocator}'s SQL store are written once against it. Each adapter (TypeORM, Prisma, Knex) builds one from the user's own
 * connection, and {@link pgSqlClient}, {@link mysqlSqlClient}, {@link sqliteSqlClient} wrap plain
 * drivers, so a user never configures a second connection.
 *
 * The contract, for anyone writing a client:
 * - SQL uses `?` placeholders on every dialect. A client for PostgreSQL rewrites them as `$1, $2, ...`
 *   ({@link toPostgresPlaceholders} does it).
 * - Every call is a single statement that runs on its own (autocommit), never inside a transaction
 *   the application has open: one rolled back after core handed out its ids would let them be handed
 *   out again. A client that shares a connection with the application (SQLite) waits until such a
 *   transaction ends, or refuses the statement with a `ConnectionInTransactionError`. Core needs
 *   no transactions: every write it makes is one conditional statement, atomic on every dialect.
 * - Integer columns may come back as `number`, `string` or `bigint`; core converts them itself.
 * - Errors are passed through as they are (core wraps them with context).
 *
 * @example
 * const client: SqlClient = {
 *   dialect: 'postgres',
 *   query: async <Row>(sql: string, params: readonly SqlParam[] = []) =>
 *     (await pool.query(toPostgresPlaceholders(sql), [...params])).rows as Row[],
 *   execute: async (sql, params = []) =>
 *     (await pool.query(toPostgresPlaceholders(sql), [...params])).rowCount ?? 0,
 * };
 */
export interface SqlClient {
  readonly dialect: SqlDialect;
  /** Runs a statement that returns rows (a SELECT) and resolves to them, as plain objects by column name. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>;
  /**
   * Runs a statement that writes (CREATE, INSERT, UPDATE, DELETE) and resolves to the number of rows
   * it inserted or updated: the rows its WHERE matched (core's updates always change what they match,
   * so MySQL's "found" and "changed" counts agree).
   */
  execute(sql: string, params?: readonly SqlParam[]): Promise<number>;
}

/**
 * Checks that `client` is a {@link SqlClient} of a known dialect and returns it; throws an
 * {@link InvalidArgumentError} naming `argument` otherwise. For code that takes a client from users.
 */
export function assertSqlClient(client: unknown, argument = 'client'): SqlClient {
  if (client === null || typeof client !== 'object') {
    throw new InvalidArgumentError(
      argument,
      'a SqlClient (pgSqlClient(pool), an adapter factory, ...)',
      client,
    );
  }
  const c = client as Partial<SqlClient>;
  if (!SQL_DIALECTS.includes(c.dialect as SqlDialect)) {
    throw new InvalidArgumentError(`${argument}.dialect`, `one of ${SQL_DIALECTS.join(', ')}`, c.dialect);
  }
  for (const method of ['query', 'execute'] as const) {
    if (typeof c[method] !== 'function') {
      throw new InvalidArgumentError(`${argument}.${method}`, 'a function', c[method]);
    }
  }
  return client as SqlClient;
}

/**
 * Rewrites `?` placeholders as PostgreSQL's `$1, $2, ...`, leaving a `?` inside a quoted string,
 * a quoted identifier or a comment alone. For clients that send SQL to a PostgreSQL driver.
 *
 * @example
 * toPostgresPlaceholders("SELECT '?' AS q FROM t WHERE a = ? AND b = ?"); // "SELECT '?' AS q FROM t WHERE a = $1 AND b = $2"
 */
export function toPostgresPlaceholders(sql: string): string {
  return rewriteSqlPlaceholders(sql, (n) => `$${n}`);
}

/**
 * Rewrites each `?` placeholder of `sql` with `placeholder(n)` (n counts from 1) and each quoted
 * string, quoted identifier or comment with `quoted(text)` (unchanged by default), so a `?` inside
 * them is never taken for a placeholder. SqlClient factories use it to meet their driver's syntax.
 *
 * @example
 * rewriteSqlPlaceholders("SELECT '?' WHERE a = ?", () => '?', (t) => t.replaceAll('?', '\\?'));
 * // "SELECT '\\?' WHERE a = ?": Knex's escape for a literal question mark
 */
export function rewriteSqlPlaceholders(
  sql: string,
  placeholder: (n: number) => string,
  quoted: (text: string) => string = (text) => text,
): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    let end = i + 1;
    if (c === '?') {
      out += placeholder(++n);
      i++;
      continue;
    }
    if (c === "'" || c === '"') end = closingQuote(sql, i, c);
    else if (c === '-' && sql[i + 1] === '-') end = until(sql, '\n', i, 0);
    else if (c === '/' && sql[i + 1] === '*') end = until(sql, '*/', i + 2, 2);
    else {
      out += c;
      i++;
      continue;
    }
    out += quoted(sql.slice(i, end));
    i = end;
  }
  return out;
}

function until(sql: string, token: string, from: number, extra: number): number {
  const at = sql.indexOf(token, from);
  return at === -1 ? sql.length : at + extra;
}

/** The index just past the quote that closes the one at `start` (a doubled quote escapes it). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] !== quote) i++;
    else if (sql[i + 1] === quote) i += 2;
    else return i + 1;
  }
  return sql.length;
}
