import { InvalidArgumentError } from './errors.js';

/** The SQL dialects snowkey writes SQL for. */
export type SqlDialect = 'postgres' | 'mysql' | 'sqlite';

/** The dialects, in order; anything else is refused. */
export const SQL_DIALECTS: readonly SqlDialect[] = Object.freeze(['postgres', 'mysql', 'sqlite']);

/** A bound parameter. Core binds only these; a factory converts them as its driver needs. */
export type SqlParam = string | number | bigint | null;

/**
 * The one interface between core and a database (leases, the segment store). A client takes `?`
 * placeholders, runs each statement on its own (autocommit), never inside the application's open
 * transaction (a rollback after ids were handed out would hand them out again), and passes errors through.
 */
export interface SqlClient {
  readonly dialect: SqlDialect;
  /** Runs a statement that returns rows (a SELECT) and resolves to them, as plain objects by column name. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>;
  /** Runs a write and resolves to the rows it inserted or updated (its WHERE matched). */
  execute(sql: string, params?: readonly SqlParam[]): Promise<number>;
}

/** Checks that `client` is a {@link SqlClient} of a known dialect and returns it. */
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

/** Rewrites `?` placeholders as `$1, $2, ...`, leaving a `?` in a string, quoted name or comment alone. */
export function toPostgresPlaceholders(sql: string): string {
  return rewriteSqlPlaceholders(sql, (n) => `$${n}`);
}

/** Rewrites each `?` with `placeholder(n)` (from 1) and each quoted text or comment with `quoted`. */
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
