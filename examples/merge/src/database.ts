import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@snowkey/core';
import knex, { type Knex } from 'knex';
import pg from 'pg';

/** The three dialects every example runs on. */
export type Dialect = 'postgres' | 'mysql' | 'sqlite';

/** Where one database lives: `postgres://...`, `mysql://...` or `file:/abs/path.sqlite`. */
export interface DatabaseRef {
  readonly dialect: Dialect;
  readonly url: string;
  /** A short label for reports: `S1`, `merged`, ... */
  readonly label?: string;
}

const PG_INT8_OID = 20;

/**
 * The dialect a URL speaks, from its scheme.
 *
 * @example
 * dialectOfUrl('postgres://postgres@127.0.0.1/game'); // 'postgres'
 * dialectOfUrl('file:/tmp/s1.sqlite');               // 'sqlite'
 */
export function dialectOfUrl(url: string): Dialect {
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  if (/^(mysql|mariadb):\/\//.test(url)) return 'mysql';
  if (url.startsWith('file:')) return 'sqlite';
  throw new InvalidArgumentError('url', 'a postgres://, mysql:// or file: URL', url);
}

/**
 * The path of a `file:` URL (`file:/abs/x.sqlite` or `file:///abs/x.sqlite`).
 *
 * @example
 * sqliteFilename('file:/tmp/s1.sqlite'); // '/tmp/s1.sqlite'
 */
export function sqliteFilename(url: string): string {
  return url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
}

/**
 * A Knex instance on `ref` whose BIGINT columns come back as exact `bigint` on every driver:
 * pg parses int8 with `BigInt`, mysql2 casts LONGLONG through its string form, better-sqlite3
 * runs with `safeIntegers`. SQLite also gets foreign keys on (off by default per connection), WAL
 * and a busy timeout so a second process can read while a writer commits.
 *
 * @example
 * const db = openDatabase({ dialect: 'sqlite', url: 'file:/tmp/s1.sqlite' });
 * const [{ id }] = await db('players').select('id').limit(1); // id is a bigint
 */
export function openDatabase(ref: DatabaseRef, options: { poolMax?: number } = {}): Knex {
  const max = options.poolMax ?? 4;
  // Knex inlines the bindings into an error's message and throws a TypeError of its own on a
  // bigint binding, hiding the database's error; keep the SQL with placeholders instead.
  const common = { compileSqlOnError: false };
  switch (ref.dialect) {
    case 'postgres':
      return knex({
        ...common,
        client: 'pg',
        connection: {
          connectionString: ref.url,
          types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
              oid === PG_INT8_OID
                ? (v: string) => BigInt(v)
                : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
          },
        } as Knex.PgConnectionConfig,
        pool: { min: 0, max },
      });
    case 'mysql':
      return knex({
        ...common,
        client: 'mysql2',
        connection: {
          uri: ref.url,
          supportBigNumbers: true,
          bigNumberStrings: true,
          typeCast(field: { type: string; string(): string | null }, next: () => unknown) {
            if (field.type === 'LONGLONG') {
              const s = field.string();
              return s === null ? null : BigInt(s);
            }
            return next();
          },
        } as unknown as Knex.MySql2ConnectionConfig,
        pool: { min: 0, max },
      });
    case 'sqlite':
      return knex({
        ...common,
        client: 'better-sqlite3',
        connection: { filename: sqliteFilename(ref.url), options: { safeIntegers: true } },
        useNullAsDefault: true,
        pool: sqlitePool(),
      });
    default:
      throw new InvalidArgumentError('dialect', 'postgres, mysql or sqlite', (ref as DatabaseRef).dialect);
  }
}

/**
 * The Knex pool of a game database on SQLite (better-sqlite3). One connection: SQLite has one
 * writer at a time, so queued transactions wait in the pool instead of failing with SQLITE_BUSY.
 * Foreign keys on (SQLite leaves them off per connection), WAL and a busy timeout so another
 * process (the merge, the verifier) can read while a game server writes.
 *
 * @example
 * knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: sqlitePool() });
 */
export function sqlitePool(): Knex.PoolConfig {
  return {
    min: 1,
    max: 1,
    afterCreate(conn: { pragma(s: string): unknown }, done: (err: Error | null, c: unknown) => void) {
      conn.pragma('journal_mode = WAL');
      conn.pragma('synchronous = NORMAL');
      conn.pragma('busy_timeout = 10000');
      conn.pragma('foreign_keys = ON');
      done(null, conn);
    },
  };
}

/**
 * A bigint key as a Knex binding. Knex's type declarations predate bigint; the drivers opened by
 * {@link openDatabase} all bind it exactly (pg and mysql2 as its decimal text, better-sqlite3 as
 * a 64-bit integer), so this only changes the static type.
 *
 * @example
 * await db('players').where('id', keyValue(id)).first();
 */
export function keyValue(id: bigint): Knex.Value {
  return id as unknown as Knex.Value;
}

/**
 * Bigint keys as Knex bindings for `whereIn`; see {@link keyValue}.
 *
 * @example
 * await db('players').whereIn('id', keyValues(ids));
 */
export function keyValues(ids: readonly bigint[]): readonly Knex.Value[] {
  return ids as unknown as readonly Knex.Value[];
}
