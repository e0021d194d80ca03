import { bigintTypeCast } from '@snowkey/core';
import { PG_INT8_OID, requireMethod, toPostgresPlaceholders } from '@snowkey/core/adapter';
import type { MergeDatabase, MergeSession, MergeSqlClient, SqlValue } from './database.js';
import { type DriverConnection, registerConnection } from './driver-connection.js';
import { serialized } from './serialized.js';

interface PgResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
  fields?: readonly { name: string; dataTypeID: number }[];
}

/** What {@link pgDatabase} needs of a `pg` Pool. */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  connect(): Promise<{
    query(text: string, values?: unknown[]): Promise<PgResult>;
    release(err?: Error | boolean): void;
  }>;
}

/** The `typeCast` the engine gives mysql2 (a `typeCast: unknown` would not match mysql2's overloads). */
type MysqlTypeCast = (field: { type: string; string(): string | null }, next: () => unknown) => unknown;

interface MysqlConnectionLike {
  query(options: { sql: string; values?: unknown[]; typeCast?: MysqlTypeCast }): Promise<[unknown, unknown]>;
  release(): void;
}

/** What {@link mysqlDatabase} needs of a `mysql2/promise` Pool. */
export interface MysqlPoolLike {
  query(options: { sql: string; values?: unknown[]; typeCast?: MysqlTypeCast }): Promise<[unknown, unknown]>;
  getConnection(): Promise<MysqlConnectionLike>;
}

/** What {@link sqliteDatabase} needs of a `better-sqlite3` Database. */
export interface SqliteLike {
  readonly name: string;
  prepare(sql: string): {
    readonly reader: boolean;
    safeIntegers(on?: boolean): unknown;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number | bigint };
  };
  exec(sql: string): unknown;
}

function requireMethods(
  value: unknown,
  methods: readonly string[],
  argument: string,
  expected: string,
): void {
  for (const m of methods) requireMethod(value, m, argument, expected);
}

/**
 * A {@link MergeDatabase} on a `pg` Pool: `?` placeholders, BIGINT (int8) read as `bigint`
 * whatever the pool's type parsers, a transaction or a session on one pooled connection.
 *
 * @example
 * const db = pgDatabase(new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1/game_s1' }), 'game_s1');
 */
export function pgDatabase(pool: PgPoolLike, name: string, close: () => Promise<void> = async () => {}) {
  requireMethods(pool, ['query', 'connect'], 'pgDatabase(pool)', 'a pg Pool');
  const statements = (run: PgPoolLike['query']): MergeSqlClient => {
    const send = (sql: string, params: readonly SqlValue[] = []) =>
      run(toPostgresPlaceholders(sql), params.map(toDriverValue));
    return {
      dialect: 'postgres',
      query: async <Row>(sql: string, params?: readonly SqlValue[]) =>
        exactPgRows(await send(sql, params)) as Row[],
      execute: async (sql, params) => (await send(sql, params)).rowCount ?? 0,
    };
  };
  const inTransaction = async <T>(
    client: Awaited<ReturnType<PgPoolLike['connect']>>,
    body: (tx: MergeSqlClient) => Promise<T>,
  ): Promise<T> => {
    await client.query('BEGIN');
    try {
      const result = await body(statements((text, values) => client.query(text, values)));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  };
  const db: MergeDatabase = {
    ...statements((text, values) => pool.query(text, values)),
    name,
    close,
    async transaction(body) {
      const client = await pool.connect();
      try {
        const result = await inTransaction(client, body);
        client.release();
        return result;
      } catch (err) {
        client.release(true);
        throw err;
      }
    },
    async session(body) {
      const client = await pool.connect();
      let broken = false;
      try {
        const session: MergeSession = {
          ...statements((text, values) => client.query(text, values)),
          transaction: (b) => inTransaction(client, b),
        };
        registerConnection(session, { kind: 'postgres', client, database: name });
        return await body(session);
      } catch (err) {
        broken = true;
        throw err;
      } finally {
        // A session may leave temporary tables behind: a failed one is not returned to the pool.
        client.release(broken);
      }
    },
  };
  registerConnection(db, { kind: 'postgres', pool, database: name });
  return db;
}

function exactPgRows(result: PgResult): Record<string, unknown>[] {
  const int8 = (result.fields ?? []).filter((f) => f.dataTypeID === PG_INT8_OID).map((f) => f.name);
  if (int8.length === 0) return result.rows;
  for (const row of result.rows) {
    for (const column of int8) {
      const v = row[column];
      if (typeof v === 'string') row[column] = BigInt(v);
    }
  }
  return result.rows;
}

const SESSION_TEMP_TABLE_BYTES = 256 * 1024 * 1024;
const SESSION_TEMP_TABLES = `SET SESSION tmp_table_size = ${SESSION_TEMP_TABLE_BYTES}, max_heap_table_size = ${SESSION_TEMP_TABLE_BYTES}`;
const DEFAULT_TEMP_TABLES = 'SET SESSION tmp_table_size = DEFAULT, max_heap_table_size = DEFAULT';

/** mysql2 hands LONGLONG (BIGINT) over as text here, so no value passes through a Number. */
const mysqlTypeCast: MysqlTypeCast = bigintTypeCast();

/**
 * A {@link MergeDatabase} on a `mysql2/promise` Pool (MySQL or MariaDB): BIGINT read as `bigint`
 * whatever the pool's settings, a transaction or a session on one pooled connection.
 *
 * @example
 * const db = mysqlDatabase(mysql.createPool({ uri: 'mysql://root@127.0.0.1:3306/game_s1' }), 'game_s1');
 */
export function mysqlDatabase(
  pool: MysqlPoolLike,
  name: string,
  close: () => Promise<void> = async () => {},
) {
  requireMethods(pool, ['query', 'getConnection'], 'mysqlDatabase(pool)', 'a mysql2/promise Pool');
  const statements = (run: MysqlPoolLike['query']): MergeSqlClient => {
    const send = async (sql: string, params: readonly SqlValue[] = []) =>
      (await run({ sql, values: params.map(toMysqlValue), typeCast: mysqlTypeCast }))[0];
    return {
      dialect: 'mysql',
      query: async <Row>(sql: string, params?: readonly SqlValue[]) => {
        const rows = await send(sql, params);
        return (Array.isArray(rows) ? rows : []) as Row[];
      },
      execute: async (sql, params) =>
        ((await send(sql, params)) as { affectedRows?: number }).affectedRows ?? 0,
    };
  };
  const inTransaction = async <T>(conn: MysqlConnectionLike, body: (tx: MergeSqlClient) => Promise<T>) => {
    await conn.query({ sql: 'START TRANSACTION' });
    try {
      const result = await body(statements((options) => conn.query(options)));
      await conn.query({ sql: 'COMMIT' });
      return result;
    } catch (err) {
      await conn.query({ sql: 'ROLLBACK' }).catch(() => {});
      throw err;
    }
  };
  const db: MergeDatabase = {
    ...statements((options) => pool.query(options)),
    name,
    close,
    async transaction(body) {
      const conn = await pool.getConnection();
      try {
        return await inTransaction(conn, body);
      } finally {
        conn.release();
      }
    },
    async session(body) {
      const conn = await pool.getConnection();
      try {
        // The analysis groups whole tables; at the server's default 16 MiB its temporary tables go
        // to disk. Raised for this connection only, and set back before the pool gets it again.
        await conn.query({ sql: SESSION_TEMP_TABLES });
        const session: MergeSession = {
          ...statements((options) => conn.query(options)),
          transaction: (b) => inTransaction(conn, b),
        };
        registerConnection(session, { kind: 'mysql', connection: conn, database: name });
        return await body(session);
      } finally {
        await conn.query({ sql: DEFAULT_TEMP_TABLES }).catch(() => {});
        conn.release();
      }
    },
  };
  registerConnection(db, { kind: 'mysql', pool, database: name });
  return db;
}

/**
 * A {@link MergeDatabase} on a `better-sqlite3` Database: every integer read as `bigint`
 * (safe integers, per statement), statements cached, one transaction at a time.
 *
 * @example
 * const db = sqliteDatabase(new Database('/srv/game/s1.sqlite'));
 */
export function sqliteDatabase(sqlite: SqliteLike, close: () => Promise<void> = async () => {}) {
  requireMethods(sqlite, ['prepare', 'exec'], 'sqliteDatabase(db)', 'a better-sqlite3 Database');
  const cache = new Map<string, ReturnType<SqliteLike['prepare']>>();
  const prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = sqlite.prepare(sql);
      if (stmt.reader) stmt.safeIntegers(true);
      if (cache.size > 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };
  const values = (params: readonly SqlValue[]) => params.map(toSqliteValue);
  const statements: MergeSqlClient = {
    dialect: 'sqlite',
    query: async <Row>(sql: string, params: readonly SqlValue[] = []) =>
      prepare(sql).all(...values(params)) as Row[],
    execute: async (sql, params = []) => {
      // A schema change invalidates cached statements of the tables it touches.
      if (/^\s*(CREATE|DROP|ALTER|ATTACH|DETACH)\b/i.test(sql)) {
        cache.clear();
        sqlite.exec(sql);
        return 0;
      }
      return Number(prepare(sql).run(...values(params)).changes);
    },
  };
  const inTransaction = async <T>(body: (tx: MergeSqlClient) => Promise<T>): Promise<T> => {
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      const result = await body(statements);
      sqlite.exec('COMMIT');
      return result;
    } catch (err) {
      sqlite.exec('ROLLBACK');
      throw err;
    }
  };
  // One connection: a statement from outside must not land inside another caller's transaction.
  const lock = serialized();
  const connection: DriverConnection = { kind: 'sqlite', db: sqlite, file: sqlite.name };
  const db: MergeDatabase = {
    dialect: 'sqlite',
    name: sqlite.name,
    close,
    query: (sql, params) => lock(() => statements.query(sql, params)),
    execute: (sql, params) => lock(() => statements.execute(sql, params)),
    transaction: (body) => lock(() => inTransaction(body)),
    session: (body) =>
      lock(async () => {
        const session: MergeSession = { ...statements, transaction: inTransaction };
        registerConnection(session, connection);
        return body(session);
      }),
  };
  registerConnection(db, connection);
  return db;
}

/** pg takes a BIGINT exactly as its decimal text, and JSON documents as text. */
function toDriverValue(v: SqlValue): unknown {
  if (typeof v === 'bigint') return v.toString();
  return isDocument(v) ? JSON.stringify(v) : v;
}

/**
 * mysql2 writes a bigint as an integer literal; as a quoted string MySQL would compare it with a
 * BIGINT column through a double and lose the low bits above 2^53.
 */
function toMysqlValue(v: SqlValue): unknown {
  return isDocument(v) ? JSON.stringify(v) : v;
}

function isDocument(v: SqlValue): boolean {
  return v !== null && typeof v === 'object' && !(v instanceof Date) && !(v instanceof Uint8Array);
}

/** better-sqlite3 binds no booleans, dates or objects. */
function toSqliteValue(v: SqlValue): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return isDocument(v) ? JSON.stringify(v) : v;
}
