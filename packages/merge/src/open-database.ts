import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@snowkey/core';
import type { MergeDatabase } from './database.js';
import { mysqlDatabase, pgDatabase, sqliteDatabase } from './driver-databases.js';
import { DatabaseNotFoundError, MissingDriverError } from './errors.js';

/** How {@link openDatabase} opens a database. */
export interface OpenOptions {
  /** Connections of a PostgreSQL or MySQL pool. Default 4. */
  readonly poolSize?: number;
  /** Open a SQLite file read-only (a source). Default false. */
  readonly readonly?: boolean;
}

/**
 * Opens an existing database from a `postgres://`, `mysql://`, `mariadb://`, `file:` or `sqlite:`
 * URL; a missing one is a {@link DatabaseNotFoundError} before anything is written.
 *
 * @example
 * const source = await openDatabase('postgres://postgres@127.0.0.1:5432/game_s1');
 * const target = await openDatabase('file:/srv/game/merged.sqlite');
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<MergeDatabase> {
  if (typeof url !== 'string') {
    throw new InvalidArgumentError('url', 'a postgres://, mysql://, mariadb://, file: or sqlite: URL', url);
  }
  const max = options.poolSize ?? 4;
  const shown = withoutPassword(url);
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await load<typeof import('pg')>('pg', 'postgres://');
    const pool = new pg.Pool({ connectionString: url, max });
    // An idle client dropped by the server must not crash the process.
    pool.on('error', () => {});
    await reachable(
      shown,
      () => pool.query('SELECT 1'),
      () => pool.end(),
    );
    return pgDatabase(pool, databaseOf(url), () => pool.end());
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    const mysql = await load<typeof import('mysql2/promise')>('mysql2/promise', 'mysql://');
    const pool = mysql.createPool({
      uri: url.replace(/^mariadb:/, 'mysql:'),
      connectionLimit: max,
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
    await reachable(
      shown,
      () => pool.query('SELECT 1'),
      () => pool.end(),
    );
    return mysqlDatabase(pool, databaseOf(url), () => pool.end());
  }
  if (url.startsWith('file:') || url.startsWith('sqlite:')) {
    const Database = (await load<{ default: typeof import('better-sqlite3') }>('better-sqlite3', 'file:'))
      .default;
    const file = sqlitePath(url);
    if (!existsSync(file)) {
      throw new DatabaseNotFoundError(shown, `the SQLite file ${file} does not exist (it is never created)`);
    }
    const db = new Database(file, { fileMustExist: true, readonly: options.readonly === true });
    db.pragma('busy_timeout = 10000');
    if (options.readonly !== true) {
      db.pragma('foreign_keys = ON');
      // 64 MiB of page cache (SQLite's default is 2 MiB): a merge looks keys up in large tables.
      db.pragma('cache_size = -65536');
    }
    return sqliteDatabase(db, async () => {
      db.close();
    });
  }
  throw new InvalidArgumentError('url', 'a postgres://, mysql://, mariadb://, file: or sqlite: URL', url);
}

/** Asks the server once; a database it does not have is a DatabaseNotFoundError. */
async function reachable(url: string, ask: () => Promise<unknown>, end: () => Promise<void>): Promise<void> {
  try {
    await ask();
  } catch (err) {
    await end().catch(() => {});
    const e = err as { code?: unknown; errno?: unknown };
    // PostgreSQL's invalid_catalog_name, MySQL's ER_BAD_DB_ERROR.
    if (e.code === '3D000' || e.errno === 1049 || e.code === 'ER_BAD_DB_ERROR') {
      throw new DatabaseNotFoundError(url, 'the server has no such database (it is never created)', err);
    }
    throw err;
  }
}

/** The file of a `file:` or `sqlite:` URL. */
export function sqlitePath(url: string): string {
  if (url.startsWith('file://')) return fileURLToPath(url);
  return url.replace(/^(file|sqlite):/, '');
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.protocol === 'file:' || u.protocol === 'sqlite:' ? url : u.toString();
  } catch {
    return url;
  }
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || '(default)';
}

async function load<T>(specifier: string, scheme: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (err) {
    throw new MissingDriverError(specifier.split('/')[0]!, scheme, err);
  }
}
