import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveServer } from './database-servers.js';
import { toPgPlaceholders } from './sql-placeholders.js';
import type { Dialect, TestDatabase } from './test-database.js';

export type { Dialect, TestDatabase } from './test-database.js';

/** A test database that can be dropped. */
export interface DroppableTestDatabase extends TestDatabase {
  /** Closes the harness's connections and drops the database (deletes the file on sqlite). */
  drop(): Promise<void>;
}

const ALL_DIALECTS: readonly Dialect[] = ['postgres', 'mysql', 'sqlite'];

/**
 * The dialects to test, from `DIALECTS` (a comma list such as `postgres,sqlite`); all three by default.
 *
 * @example
 * // DIALECTS=postgres,mysql vitest run
 * selectedDialects(); // ['postgres', 'mysql']
 */
export function selectedDialects(): Dialect[] {
  const raw = process.env.DIALECTS?.trim();
  if (!raw) return [...ALL_DIALECTS];
  const picked = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const d of picked) {
    if (!ALL_DIALECTS.includes(d as Dialect)) {
      throw new Error(`DIALECTS must be a comma list of ${ALL_DIALECTS.join(', ')} (received "${raw}")`);
    }
  }
  return [...new Set(picked as Dialect[])];
}

/** Thrown by {@link createTestDatabase} when a server is unreachable outside CI and no Docker engine answers. */
export class DatabaseUnavailableError extends Error {
  readonly dialect: Dialect;
  constructor(dialect: Dialect, reason: string) {
    super(`${dialect} tests skipped: ${reason}`);
    this.name = 'DatabaseUnavailableError';
    this.dialect = dialect;
  }
}

/**
 * A fresh, uniquely named database (a fresh file for sqlite). Drop it when done.
 *
 * @example
 * const db = await createTestDatabase('postgres', 'leases');
 * await db.query('CREATE TABLE t (id BIGINT PRIMARY KEY)');
 * await db.query('INSERT INTO t VALUES (?)', [9007199254740993n]);
 * (await db.query<{ id: string }>('SELECT id FROM t'))[0]!.id; // '9007199254740993'
 * await db.drop();
 */
export async function createTestDatabase(dialect: Dialect, label = 'test'): Promise<DroppableTestDatabase> {
  const name = uniqueName(label);
  if (dialect === 'sqlite') return createSqlite(name);
  if (dialect !== 'postgres' && dialect !== 'mysql') {
    throw new Error(`dialect must be one of ${ALL_DIALECTS.join(', ')} (received ${String(dialect)})`);
  }
  const server = await resolveServer(dialect);
  if (server.kind === 'skip') throw new DatabaseUnavailableError(dialect, server.reason);
  return dialect === 'postgres' ? createPostgres(server.url, name) : createMysql(server.url, name);
}

/** `sk_<label>_<pid>_<random>`: lowercase, unquoted-safe, within PostgreSQL's 63 characters. */
function uniqueName(label: string): string {
  const clean = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30);
  return `sk_${clean || 'test'}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Turns a driver's bigint into a string; leaves other values alone. Used on sqlite rows. */
function bigintsToStrings(row: Record<string, unknown>, numberColumns: ReadonlySet<string>) {
  for (const key of Object.keys(row)) {
    const v = row[key];
    if (typeof v !== 'bigint') continue;
    if (numberColumns.has(key)) {
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw new Error(
          `column "${key}" is declared INT but holds ${v}, which a number cannot hold; declare it BIGINT`,
        );
      }
      row[key] = Number(v);
    } else row[key] = v.toString();
  }
  return row;
}

/** Declared integer types narrower than BIGINT, which pg and mysql return as numbers. */
const NARROW_INT = /^(INT|INTEGER|SMALLINT|TINYINT|MEDIUMINT)$/i;

async function createSqlite(name: string): Promise<DroppableTestDatabase> {
  const { default: Database } = await import('better-sqlite3');
  const filename = join(tmpdir(), `${name}.sqlite`);
  const conn = new Database(filename);
  conn.pragma('journal_mode = WAL');
  conn.pragma('busy_timeout = 10000');
  const params = (p: readonly unknown[]) => p.map((v) => (typeof v === 'boolean' ? Number(v) : v));
  /** A table's `INTEGER PRIMARY KEY` is its 64-bit rowid: read back like BIGINT, as a string. */
  const isRowidKey = (table: string | null, column: string | null): boolean => {
    if (!table || !column) return false;
    const info = conn.prepare(`PRAGMA table_info("${table.replace(/"/g, '""')}")`).all() as {
      name: string;
      type: string;
      pk: number;
    }[];
    const keys = info.filter((c) => c.pk > 0);
    return keys.length === 1 && keys[0]!.name === column && /^INTEGER$/i.test(keys[0]!.type);
  };
  return {
    dialect: 'sqlite',
    name,
    url: `file:${filename}`,
    filename,
    connection: { database: filename },
    async query<T>(sql: string, p: readonly unknown[] = []) {
      const stmt = conn.prepare(sql);
      if (!stmt.reader) {
        stmt.run(...params(p));
        return [] as T[];
      }
      stmt.safeIntegers(true);
      const narrow = new Set(
        stmt
          .columns()
          .filter((c) => c.type && NARROW_INT.test(c.type) && !isRowidKey(c.table, c.column))
          .map((c) => c.name),
      );
      const rows = stmt.all(...params(p)) as Record<string, unknown>[];
      return rows.map((r) => bigintsToStrings(r, narrow)) as T[];
    },
    async drop() {
      conn.close();
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(filename + suffix, { force: true });
    },
  };
}

async function createPostgres(maintenanceUrl: string, name: string): Promise<DroppableTestDatabase> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: maintenanceUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(maintenanceUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle client killed by DROP ... WITH (FORCE) must not crash the test process.
  pool.on('error', () => {});
  return {
    dialect: 'postgres',
    name,
    url,
    connection: parts(u, name),
    async query<T>(sql: string, p: readonly unknown[] = []) {
      const res = await pool.query(toPgPlaceholders(sql), p.map(pgParam));
      return (res.rows ?? []) as T[];
    },
    async drop() {
      await pool.end();
      const dropper = new pg.Client({ connectionString: maintenanceUrl });
      await dropper.connect();
      try {
        await sessionsGone(dropper, name);
        // FORCE: a child process a test killed may still hold a connection.
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * Waits, up to `ms`, until no session is connected to database `name`. A pool's `end()` resolves
 * before the connections it ended have closed; FORCE would send such a connection a FATAL error
 * (57P01), which its pool re-emits as an `error` event and, with no listener there, crashes the
 * test process. Those sessions leave within milliseconds; what stays (a connection of a process a
 * test killed) is left to FORCE.
 */
async function sessionsGone(
  client: { query(sql: string, p: unknown[]): Promise<{ rows: { n: number }[] }> },
  name: string,
  ms = 2000,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]!.n === 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function pgParam(v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

async function createMysql(maintenanceUrl: string, name: string): Promise<DroppableTestDatabase> {
  const mysql = await import('mysql2/promise');
  const admin = await mysql.createConnection({ uri: maintenanceUrl });
  try {
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const u = new URL(maintenanceUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: 4,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    dialect: 'mysql',
    name,
    url,
    connection: parts(u, name),
    async query<T>(sql: string, p: readonly unknown[] = []) {
      const [rows] = await pool.query(
        sql,
        p.map((v) => (typeof v === 'bigint' ? v.toString() : v)),
      );
      return (Array.isArray(rows) ? rows : []) as T[];
    },
    async drop() {
      await pool.end();
      const dropper = await mysql.createConnection({ uri: maintenanceUrl });
      try {
        await dropper.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await dropper.end();
      }
    },
  };
}

function parts(u: URL, database: string): TestDatabase['connection'] {
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : undefined,
    user: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    database,
  };
}
