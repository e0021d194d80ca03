/**
 * The parts of a better-sqlite3 `Database` this module uses.
 *
 * @example
 * import Database from 'better-sqlite3';
 * const ctor: BetterSqlite3Constructor = Database;
 */
export interface BetterSqlite3Constructor {
  new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }): BetterSqlite3Database;
}
/** The parts of a better-sqlite3 `Statement` this module uses. */
interface BetterSqlite3Statement {
  readonly reader: boolean;
  safeIntegers(toggle?: boolean): BetterSqlite3Statement;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}
/**
 * The parts of a better-sqlite3 `Database` this module uses (and hands to `onConnect`).
 *
 * @example
 * const onConnect = (db: BetterSqlite3Database) => db.pragma('journal_mode = WAL');
 */
export interface BetterSqlite3Database {
  prepare(sql: string): BetterSqlite3Statement;
  pragma(source: string): unknown;
  exec(sql: string): unknown;
  close(): unknown;
}

type Callback = (this: Statement, err: Error | null, rows?: unknown[]) => void;

const OPEN_READONLY = 0x1;
const OPEN_READWRITE = 0x2;
const OPEN_CREATE = 0x4;
const MODULE = Symbol.for('@snowkey/sequelize/better-sqlite3-module');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** What Sequelize reads after a statement ran: sqlite3 passes it as the callback's `this`. */
class Statement {
  constructor(
    readonly lastID: number | bigint,
    readonly changes: number,
  ) {}
}

/**
 * The `sqlite3` API Sequelize 6 uses, over better-sqlite3, for Sequelize's `dialectModule` option.
 * Sequelize's SQLite dialect expects the `sqlite3` driver, which reads every INTEGER as a
 * Number (rounded above 2^53: nearly every snowflake id) and has no way to read one exactly. Through
 * this module statements run on better-sqlite3 in safe-integer mode, and each integer comes back
 * as a Number when a Number holds it exactly (your INT columns are unchanged) and as a `bigint`
 * when it does not. Writes stay exact either way: Sequelize binds a bigint as its decimal text,
 * which a BIGINT column stores as the integer.
 *
 * Sequelize opens a connection per transaction; `onConnect` runs on each one as it opens (for
 * pragmas such as `journal_mode = WAL` or `busy_timeout`).
 *
 * @example
 * import Database from 'better-sqlite3';
 * const sequelize = new Sequelize({ dialect: 'sqlite', storage: 'game.db', dialectModule: betterSqlite3Module(Database) });
 * betterSqlite3Module(Database, { onConnect: (db) => db.pragma('busy_timeout = 5000') });
 */
export function betterSqlite3Module(
  BetterSqlite3: BetterSqlite3Constructor,
  options: { onConnect?: (db: BetterSqlite3Database) => void } = {},
): object {
  class Database {
    readonly filename: string;
    readonly #db: BetterSqlite3Database | undefined;

    constructor(
      filename: string,
      mode?: number | ((err: Error | null) => void),
      callback?: (err: Error | null) => void,
    ) {
      const done = typeof mode === 'function' ? mode : callback;
      const flags = typeof mode === 'number' ? mode : OPEN_READWRITE | OPEN_CREATE;
      this.filename = filename;
      let error: Error | null = null;
      try {
        this.#db = new BetterSqlite3(filename, {
          readonly: (flags & OPEN_READONLY) !== 0,
          fileMustExist: (flags & OPEN_CREATE) === 0,
        });
        options.onConnect?.(this.#db);
      } catch (err) {
        error = err as Error;
      }
      if (done) queueMicrotask(() => done(error));
    }

    /** better-sqlite3 runs one statement at a time already. */
    serialize(work?: () => void): void {
      work?.();
    }

    run(sql: string, ...rest: unknown[]): this {
      return this.#execute(sql, rest, false);
    }

    all(sql: string, ...rest: unknown[]): this {
      return this.#execute(sql, rest, true);
    }

    exec(sql: string, callback?: (err: Error | null) => void): this {
      let error: Error | null = null;
      try {
        this.#open().exec(sql);
      } catch (err) {
        error = err as Error;
      }
      if (callback) queueMicrotask(() => callback(error));
      return this;
    }

    close(callback?: (err: Error | null) => void): void {
      let error: Error | null = null;
      try {
        this.#db?.close();
      } catch (err) {
        error = err as Error;
      }
      if (callback) queueMicrotask(() => callback(error));
    }

    #open(): BetterSqlite3Database {
      if (!this.#db) throw new Error(`SQLITE_CANTOPEN: ${this.filename} is not open`);
      return this.#db;
    }

    #execute(sql: string, rest: unknown[], wantRows: boolean): this {
      const callback = typeof rest[rest.length - 1] === 'function' ? (rest.pop() as Callback) : undefined;
      const params = bindings(rest.length === 1 ? rest[0] : rest);
      let error: Error | null = null;
      let rows: unknown[] = [];
      let meta = new Statement(0, 0);
      try {
        const stmt = this.#open().prepare(sql);
        if (stmt.reader && wantRows) {
          rows = stmt
            .safeIntegers(true)
            .all(...params)
            .map(narrow);
        } else {
          const result = stmt.run(...params);
          meta = new Statement(narrow(result.lastInsertRowid) as number | bigint, Number(result.changes));
        }
      } catch (err) {
        error = err as Error;
      }
      if (callback) queueMicrotask(() => callback.call(meta, error, rows));
      return this;
    }
  }
  return { Database, OPEN_READONLY, OPEN_READWRITE, OPEN_CREATE, verbose: () => undefined, [MODULE]: true };
}

/** Whether `lib` was built by {@link betterSqlite3Module}. */
export function isBetterSqlite3Module(lib: unknown): boolean {
  return typeof lib === 'object' && lib !== null && (lib as { [MODULE]?: true })[MODULE] === true;
}

/**
 * sqlite3 takes named parameters with their prefix (`{ $1: v }`) and positional ones as an array;
 * better-sqlite3 wants the names without the prefix.
 */
function bindings(params: unknown): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return params.map(bindable);
  if (params !== null && typeof params === 'object' && !ArrayBuffer.isView(params)) {
    const named: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) named[key.replace(/^[$:@]/, '')] = bindable(value);
    return [named];
  }
  return [bindable(params)];
}

/** What sqlite3 binds that better-sqlite3 refuses: booleans (as 1 and 0) and undefined (as NULL). */
function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value === undefined ? null : value;
}

/** Safe bigints back to Numbers, in a row object or a plain value. */
function narrow(value: unknown): unknown {
  if (typeof value === 'bigint') return value <= MAX_SAFE && value >= MIN_SAFE ? Number(value) : value;
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const row = value as Record<string, unknown>;
    for (const key of Object.keys(row)) row[key] = narrow(row[key]);
  }
  return value;
}
