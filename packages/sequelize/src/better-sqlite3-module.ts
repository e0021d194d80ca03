/** The parts of a better-sqlite3 `Database` this module uses. */
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
/** The parts of a better-sqlite3 `Database` this module uses (and hands to `onConnect`). */
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
 * Sequelize's `dialectModule` for SQLite over better-sqlite3, which reads integers above 2^53 as
 * exact bigints (`sqlite3` rounds them); `onConnect` runs on each connection as it opens.
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
