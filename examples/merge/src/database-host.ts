import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError } from '@snowkey/core';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { type DatabaseRef, type Dialect, sqliteFilename } from './database.js';

/**
 * Where the examples create their databases: a PostgreSQL or MySQL server (its maintenance URL,
 * e.g. `postgres://postgres@127.0.0.1:5432/postgres`), a directory of SQLite files, or a
 * function that hands out fresh databases (a test harness).
 */
export type DatabaseHost =
  | { readonly dialect: 'postgres' | 'mysql'; readonly url: string }
  | { readonly dialect: 'sqlite'; readonly dir: string }
  | { readonly dialect: Dialect; readonly create: (name: string) => Promise<DatabaseRef> };

const NAME = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * Creates an empty database `name` on `host`, dropping any previous one of that name first, so a
 * rerun of an example starts clean.
 *
 * @example
 * const s1 = await createFreshDatabase({ dialect: 'sqlite', dir: '.tmp/demo' }, 'game_s1');
 * // { dialect: 'sqlite', url: 'file:/.../.tmp/demo/game_s1.sqlite', label: 'game_s1' }
 */
export async function createFreshDatabase(host: DatabaseHost, name: string): Promise<DatabaseRef> {
  if (!NAME.test(name)) throw new InvalidArgumentError('name', 'a lowercase identifier like game_s1', name);
  if ('create' in host) return host.create(name);
  await dropDatabase(host, name);
  if (host.dialect === 'sqlite') {
    mkdirSync(resolve(host.dir), { recursive: true });
    return { dialect: 'sqlite', url: `file:${resolve(host.dir, `${name}.sqlite`)}`, label: name };
  }
  await onServer(host, (sql) =>
    sql(
      host.dialect === 'postgres'
        ? `CREATE DATABASE "${name}"`
        : `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`,
    ),
  );
  return { dialect: host.dialect, url: withDatabase(host.url, name), label: name };
}

/**
 * Drops database `name` on `host` if it exists (deletes the file and its WAL on SQLite). A host
 * that hands out databases drops them itself.
 *
 * @example
 * await dropDatabase({ dialect: 'postgres', url: 'postgres://postgres@127.0.0.1/postgres' }, 'game_s1');
 */
export async function dropDatabase(host: DatabaseHost, name: string): Promise<void> {
  if (!NAME.test(name)) throw new InvalidArgumentError('name', 'a lowercase identifier like game_s1', name);
  if ('create' in host) return;
  if (host.dialect === 'sqlite') {
    const file = sqliteFilename(`file:${resolve(host.dir, `${name}.sqlite`)}`);
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
    return;
  }
  // FORCE: a merge killed mid-batch may leave a session the server has not noticed yet.
  await onServer(host, (sql) =>
    sql(
      host.dialect === 'postgres'
        ? `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`
        : `DROP DATABASE IF EXISTS \`${name}\``,
    ),
  );
}

/**
 * The URL of database `name` on the server of `url`.
 *
 * @example
 * withDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'game_s1'); // 'postgres://postgres@127.0.0.1:5432/game_s1'
 */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function onServer(
  host: { dialect: Exclude<Dialect, 'sqlite'>; url: string },
  body: (sql: (text: string) => Promise<unknown>) => Promise<unknown>,
): Promise<void> {
  if (host.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: host.url });
    await client.connect();
    try {
      await body((text) => client.query(text));
    } finally {
      await client.end();
    }
    return;
  }
  const conn = await mysql.createConnection({ uri: host.url });
  try {
    await body((text) => conn.query(text));
  } finally {
    await conn.end();
  }
}
