import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@snowkey/core';
import type { MergeDatabase } from './database.js';
import { mysqlDatabase, pgDatabase, sqliteDatabase } from './driver-databases.js';
import { MissingDriverError } from './errors.js';

/**
 * Opens a database from a URL: `postgres://` (driver `pg`), `mysql://` or `mariadb://` (`mysql2`),
 * `file:/path/to/db.sqlite` or `sqlite:path` (`better-sqlite3`). The drivers are optional peer
 * dependencies, loaded when a URL needs one. SQLite gets foreign keys on and a busy timeout.
 * Close it with `close()`.
 *
 * @example
 * const source = await openDatabase('postgres://postgres@127.0.0.1:5432/game_s1');
 * const target = await openDatabase('file:/srv/game/merged.sqlite');
 */
export async function openDatabase(url: string, options: { poolSize?: number } = {}): Promise<MergeDatabase> {
  if (typeof url !== 'string') {
    throw new InvalidArgumentError('url', 'a postgres://, mysql://, mariadb://, file: or sqlite: URL', url);
  }
  const max = options.poolSize ?? 4;
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await load<typeof import('pg')>('pg', 'postgres://');
    const pool = new pg.Pool({ connectionString: url, max });
    // An idle client dropped by the server must not crash the process.
    pool.on('error', () => {});
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
    return mysqlDatabase(pool, databaseOf(url), () => pool.end());
  }
  if (url.startsWith('file:') || url.startsWith('sqlite:')) {
    const Database = (await load<{ default: typeof import('better-sqlite3') }>('better-sqlite3', 'file:'))
      .default;
    const file = sqlitePath(url);
    const db = new Database(file);
    db.pragma('busy_timeout = 10000');
    db.pragma('foreign_keys = ON');
    return sqliteDatabase(db, async () => {
      db.close();
    });
  }
  throw new InvalidArgumentError('url', 'a postgres://, mysql://, mariadb://, file: or sqlite: URL', url);
}

/**
 * The file of a `file:` or `sqlite:` URL.
 *
 * @example
 * sqlitePath('file:///srv/s1.sqlite'); // '/srv/s1.sqlite'
 * sqlitePath('sqlite:s1.sqlite');      // 's1.sqlite'
 */
export function sqlitePath(url: string): string {
  if (url.startsWith('file://')) return fileURLToPath(url);
  return url.replace(/^(file|sqlite):/, '');
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
