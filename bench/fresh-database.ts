import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type Dialect = 'postgres' | 'mysql' | 'sqlite';

/** Each dialect's database as the benches' tables name it. */
export const DATABASE_NAME: Readonly<Record<Dialect, string>> = {
  postgres: 'PostgreSQL',
  mysql: 'MariaDB',
  sqlite: 'SQLite',
};

const SERVER = {
  postgres: process.env.SNOWKEY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: process.env.SNOWKEY_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
};

/** A connection of its own to a server's database: a statement's rows, and its end. */
export async function connect(dialect: 'postgres' | 'mysql', url: string) {
  if (dialect === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return { query: async (sql: string) => (await c.query(sql)).rows as unknown[], end: () => c.end() };
  }
  const c = await mysql.createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: true });
  return { query: async (sql: string) => (await c.query(sql))[0] as unknown[], end: () => c.end() };
}

/** Runs `statements` in order on a connection of its own to `url` (`file:<path>` on SQLite). */
export async function runSql(dialect: Dialect, url: string, statements: readonly string[]): Promise<void> {
  if (dialect === 'sqlite') {
    const db = new Database(url.replace(/^file:/, ''));
    for (const sql of statements) db.exec(sql);
    db.close();
    return;
  }
  const c = await connect(dialect, url);
  for (const sql of statements) await c.query(sql);
  await c.end();
}

/** A bench's database: its URL, and its name on the server (its file's path on SQLite). */
export type FreshDatabase = { url: string; name: string; drop(): Promise<void> };

/** Creates the empty database `name` (dropped first if a run left it), or an empty file in the temp dir. */
export async function freshDatabase(dialect: Dialect, name: string): Promise<FreshDatabase> {
  if (dialect === 'sqlite') {
    const file = join(tmpdir(), `${name}.sqlite`);
    const drop = async () => {
      for (const s of ['', '-wal', '-shm', '-journal']) rmSync(file + s, { force: true });
    };
    await drop();
    new Database(file).close();
    return { url: `file:${file}`, name: file, drop };
  }
  const q = dialect === 'postgres' ? `"${name}"` : `\`${name}\``;
  const force = dialect === 'postgres' ? ' WITH (FORCE)' : '';
  const drop = () => runSql(dialect, SERVER[dialect], [`DROP DATABASE IF EXISTS ${q}${force}`]);
  await drop();
  await runSql(dialect, SERVER[dialect], [`CREATE DATABASE ${q}`]);
  const url = new URL(SERVER[dialect]);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop };
}
