import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect, TestDatabase } from '@snowkey/test-harness';
import type { PrismaDataModel } from '../../src/index.js';
// The three generated clients have the same models and API; the PostgreSQL one types them all.
import type { PrismaClient } from '../generated/postgres/client/client.js';

export type TestPrismaClient = PrismaClient;

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let generated = false;

/** Generates the tests' Prisma clients when missing or stale (see scripts/generate-test-clients.mjs). */
export function ensureTestClients(): void {
  if (generated) return;
  execFileSync(process.execPath, [join(packageRoot, 'scripts', 'generate-test-clients.mjs')], {
    stdio: 'inherit',
  });
  generated = true;
}

/** The data model the package's generator wrote for test/prisma/models.prisma (the same for every dialect). */
export async function loadTestDataModel(): Promise<PrismaDataModel> {
  ensureTestClients();
  const url = join(packageRoot, 'test', 'generated', 'postgres', 'snowkey', 'data-model.ts');
  return ((await import(url)) as { dataModel: PrismaDataModel }).dataModel;
}

/** Creates the tables of test/prisma/models.prisma from test/sql/tables.sql (one SQL for every dialect). */
export async function createTestTables(db: TestDatabase): Promise<void> {
  const sql = readFileSync(join(packageRoot, 'test', 'sql', 'tables.sql'), 'utf8');
  const statements = sql
    .replace(/--.*$/gm, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const statement of statements) await db.query(statement);
}

/** A plain (not extended) Prisma client on `db`, through the dialect's driver adapter. */
export async function openPrisma(db: TestDatabase): Promise<TestPrismaClient> {
  ensureTestClients();
  const url = join(packageRoot, 'test', 'generated', db.dialect, 'client', 'client.ts');
  const { PrismaClient: Client } = (await import(url)) as {
    PrismaClient: new (options: object) => PrismaClient;
  };
  return new Client({ adapter: await adapterFor(db) });
}

async function adapterFor(db: TestDatabase): Promise<object> {
  const dialect: Dialect = db.dialect;
  if (dialect === 'postgres') {
    const { PrismaPg } = await import('@prisma/adapter-pg');
    return new PrismaPg({ connectionString: db.url, max: 4 });
  }
  if (dialect === 'mysql') {
    const { PrismaMariaDb } = await import('@prisma/adapter-mariadb');
    const { host, port, user, password, database } = db.connection;
    return new PrismaMariaDb({ host, port, user, password, database, connectionLimit: 4 });
  }
  const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
  return new PrismaBetterSqlite3({ url: db.url });
}

/** A client that never connects (SQLite in memory): enough for `$extends`, which reads only the data model. */
export async function openUnconnectedPrisma(): Promise<TestPrismaClient> {
  return openPrisma({
    dialect: 'sqlite',
    name: 'memory',
    url: ':memory:',
    connection: { database: ':memory:' },
    query: async () => [],
  });
}
