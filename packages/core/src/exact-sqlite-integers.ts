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
 * Makes integer reads of a better-sqlite3 `Database` exact. By default better-sqlite3 returns every
 * INTEGER as a Number and silently rounds values above 2^53 — nearly every snowflake id. After
 * this call, reading statements run in safe-integer mode and each integer comes back as a Number
 * when a Number holds it exactly (so `INT` columns are unchanged) and as a bigint when it does not.
 * It patches the connection's `prepare`, so it applies to every statement prepared afterwards,
 * whoever prepares them (TypeORM's `prepareDatabase` hook, Drizzle's `drizzle(sqlite)`). Calling it
 * twice is harmless. The adapters re-export it for applications.
 *
 * @example
 * import Database from 'better-sqlite3';
 * const sqlite = new Database('game.db');
 * exactSqliteIntegers(sqlite);
 * sqlite.prepare('SELECT 9223372036854775807 AS n').get(); // { n: 9223372036854775807n }
 * sqlite.prepare('SELECT 3 AS n').get();                   // { n: 3 }
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

/**
 * Whether {@link exactSqliteIntegers} ran on this better-sqlite3 connection: the adapters check it
 * at start-up, so a connection that would round ids is refused before the first read.
 *
 * @example
 * if (!hasExactSqliteIntegers(sqlite)) throw new Error('call exactSqliteIntegers(sqlite) first');
 */
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
