import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import type { Dialect } from './test-database.js';

/** Where a server dialect's maintenance connection goes, or why its tests are skipped. */
export type ServerResolution =
  | { readonly kind: 'ready'; readonly url: string; readonly source: 'env' | 'default' | 'testcontainers' }
  | { readonly kind: 'skip'; readonly reason: string };

export type ServerDialect = Exclude<Dialect, 'sqlite'>;

const DEFAULT_URLS: Record<ServerDialect, string> = {
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: 'mysql://root@127.0.0.1:3306/test',
};
const ENV_NAMES: Record<ServerDialect, string> = {
  postgres: 'SNOWKEY_PG_URL',
  mysql: 'SNOWKEY_MYSQL_URL',
};
const PROBE_TIMEOUT_MS = 5000;
/** Errors that mean "nobody answers at that address", as opposed to a server that refuses us. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
]);

loadDotEnvOnce();

/**
 * One resolution per dialect per process: a test file probes each server once, and a server
 * started with testcontainers serves every database the file creates.
 */
const resolutions = new Map<ServerDialect, Promise<ServerResolution>>();

/**
 * The maintenance URL of a server dialect. Order: `SNOWKEY_PG_URL` / `SNOWKEY_MYSQL_URL`, else the
 * local default. When nobody answers there: with `CI=true` it throws (CI must never skip a
 * database); otherwise, when a Docker engine answers, a container is started; otherwise the
 * dialect resolves to `skip` with the reason.
 *
 * @example
 * const server = await resolveServer('postgres');
 * if (server.kind === 'ready') connect(server.url);
 */
export function resolveServer(dialect: ServerDialect): Promise<ServerResolution> {
  let pending = resolutions.get(dialect);
  if (!pending) {
    pending = resolveServerUncached(dialect, process.env);
    resolutions.set(dialect, pending);
  }
  return pending;
}

/**
 * {@link resolveServer} without the cache, reading the given environment (tests use it to
 * prove the CI and skip paths).
 *
 * @example
 * await resolveServerUncached('mysql', { CI: 'true', SNOWKEY_MYSQL_URL: 'mysql://root@127.0.0.1:1/test' }); // throws
 */
export async function resolveServerUncached(
  dialect: ServerDialect,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ServerResolution> {
  const fromEnv = env[ENV_NAMES[dialect]];
  const url = fromEnv || DEFAULT_URLS[dialect];
  const source = fromEnv ? 'env' : 'default';
  const probe = await probeServer(dialect, url);
  if (probe === 'ok') return { kind: 'ready', url, source };

  const where = `${dialect} at ${redact(url)} (${source === 'env' ? `from ${ENV_NAMES[dialect]}` : 'the default'})`;
  if (env.CI === 'true') {
    throw new Error(
      `CI=true and ${where} is unreachable (${probe}). In CI a database test fails rather than skips: start the server (e.g. \`docker compose up -d --wait\`) or set ${ENV_NAMES[dialect]}.`,
    );
  }
  const started = await startContainer(dialect);
  if (started.kind === 'ready') return started;
  return { kind: 'skip', reason: `${where} is unreachable (${probe}) and ${started.reason}` };
}

/** `'ok'` when a server answers a trivial query at `url`; else why not. Throws when it answers but refuses us. */
async function probeServer(dialect: ServerDialect, url: string): Promise<'ok' | string> {
  try {
    if (dialect === 'postgres') {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => {});
      }
    } else {
      const mysql = await import('mysql2/promise');
      const conn = await mysql.createConnection({ uri: url, connectTimeout: PROBE_TIMEOUT_MS });
      try {
        await conn.query('SELECT 1');
      } finally {
        await conn.end().catch(() => {});
      }
    }
    return 'ok';
  } catch (err) {
    const code = errorCode(err);
    if (code && UNREACHABLE_CODES.has(code)) return code;
    if (err instanceof Error && /timeout|timed out/i.test(err.message)) return err.message;
    throw new Error(`${dialect} at ${redact(url)} answered but refused the test harness: ${String(err)}`, {
      cause: err,
    });
  }
}

async function startContainer(dialect: ServerDialect): Promise<ServerResolution> {
  let modules: [typeof import('@testcontainers/postgresql'), typeof import('@testcontainers/mysql')];
  try {
    modules = await Promise.all([import('@testcontainers/postgresql'), import('@testcontainers/mysql')]);
  } catch (err) {
    // testcontainers is pinned to 11: 12 needs Node >= 22.22 (its undici uses zstd). Report any load failure as the reason.
    return {
      kind: 'skip',
      reason: `testcontainers could not load on Node ${process.versions.node} (${firstLine(err)})`,
    };
  }
  try {
    if (dialect === 'postgres') {
      const c = await new modules[0].PostgreSqlContainer('postgres:15').withReuse().start();
      return { kind: 'ready', url: c.getConnectionUri(), source: 'testcontainers' };
    }
    const c = await new modules[1].MySqlContainer('mysql:8').withReuse().start();
    return { kind: 'ready', url: c.getConnectionUri(true), source: 'testcontainers' };
  } catch (err) {
    if (/container runtime|docker/i.test(firstLine(err))) {
      return { kind: 'skip', reason: `no Docker engine answers for testcontainers (${firstLine(err)})` };
    }
    throw new Error(`starting a ${dialect} container with testcontainers failed: ${firstLine(err)}`, {
      cause: err,
    });
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}

function errorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object') {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    // AggregateError from a host that resolves to both IPv4 and IPv6.
    const errors = (err as { errors?: unknown }).errors;
    if (Array.isArray(errors)) return errors.map(errorCode).find(Boolean);
  }
  return undefined;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** Fills unset variables from the repository's `.env` (see `.env.example`), once. */
function loadDotEnvOnce(): void {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.env');
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}
