const EXACT = Symbol.for('@snowkey/core/exact-sqlite-integers');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** The parts of a better-sqlite3 `Database` and `Statement` this module touches. */
interface SqliteStatement {
  readonly reader: boolean;
  safeIntegers(toggle?: boolean): SqliteStatement;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  iterate(...params: unknown[]): IterableIterator<unknown>;
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}

/**
 * Makes a better-sqlite3 `Database` read integers above 2^53 as exact bigints (smaller ones stay
 * Numbers) in every statement prepared afterwards; better-sqlite3 otherwise rounds them.
 *
 * @example
 * exactSqliteIntegers(sqlite);
 * sqlite.prepare('SELECT 9223372036854775807 AS n').get(); // { n: 9223372036854775807n }
 */
export function exactSqliteIntegers(db: unknown): void {
  const database = db as SqliteDatabase & { [EXACT]?: true };
  if (database[EXACT]) return;
  const prepare = database.prepare.bind(database);
  database.prepare = (sql: string) => {
    const stmt = prepare(sql);
    if (stmt.reader) exact(stmt);
    return stmt;
  };
  database[EXACT] = true;
}

/** Whether {@link exactSqliteIntegers} ran on this connection (adapters refuse one that would round ids). */
export function hasExactSqliteIntegers(db: unknown): boolean {
  return typeof db === 'object' && db !== null && (db as { [EXACT]?: true })[EXACT] === true;
}

function exact(stmt: SqliteStatement): void {
  stmt.safeIntegers(true);
  const { all, get, iterate } = stmt;
  stmt.all = (...params) => all.apply(stmt, params).map(narrow);
  stmt.get = (...params) => narrow(get.apply(stmt, params));
  stmt.iterate = function* (...params) {
    for (const row of iterate.apply(stmt, params)) yield narrow(row);
  };
}

/** Safe bigints back to Numbers, in a row object, a raw row array or a plucked value. */
function narrow(value: unknown): unknown {
  if (typeof value === 'bigint') return value <= MAX_SAFE && value >= MIN_SAFE ? Number(value) : value;
  if (Array.isArray(value)) return value.map(narrow);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const row = value as Record<string, unknown>;
    for (const key of Object.keys(row)) row[key] = narrow(row[key]);
  }
  return value;
}
