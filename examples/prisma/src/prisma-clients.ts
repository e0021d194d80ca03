import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect } from '@snowkey/example-merge';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const generatedDir = join(root, 'generated');
const PROVIDERS: Record<Dialect, string> = { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite' };
const STALE_LOCK_MS = 120_000;

/**
 * The path of the generated Prisma client for `dialect` (examples/prisma/generated/<dialect>),
 * generating it first when it is missing or older than prisma/game.prisma. Offline: Prisma 7's
 * `generate` needs no engine, only PRISMA_SCHEMA_ENGINE_BINARY naming some file (node itself).
 * Parallel callers wait on a lock directory.
 *
 * @example
 * const { PrismaClient } = await import(ensurePrismaClient('sqlite'));
 */
export function ensurePrismaClient(dialect: Dialect): string {
  const entry = join(generatedDir, dialect, 'client', 'client.ts');
  const schema = schemaFor(dialect);
  const stamp = createHash('sha256').update(`${prismaVersion()}\n${schema}`).digest('hex');
  const stampFile = join(generatedDir, dialect, 'client', '.stamp');
  const fresh = () => existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  if (fresh()) return entry;
  withLock(() => {
    if (!fresh()) generate(dialect, schema, stamp);
  });
  return entry;
}

function schemaFor(dialect: Dialect): string {
  return `generator client {
  provider     = "prisma-client"
  output       = "./client"
  moduleFormat = "esm"
}

datasource db {
  provider = "${PROVIDERS[dialect]}"
}

${readFileSync(join(root, 'prisma', 'game.prisma'), 'utf8')}`;
}

function prismaCli(): string {
  return createRequire(join(root, 'package.json')).resolve('prisma/build/index.js');
}

function prismaVersion(): string {
  const require = createRequire(join(root, 'package.json'));
  return JSON.parse(readFileSync(require.resolve('prisma/package.json'), 'utf8')).version;
}

function generate(dialect: Dialect, schema: string, stamp: string): void {
  const staging = join(generatedDir, `.staging-${dialect}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'schema.prisma'), schema);
  execFileSync(process.execPath, [prismaCli(), 'generate', '--schema', join(staging, 'schema.prisma')], {
    cwd: staging,
    stdio: 'pipe',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
  writeFileSync(join(staging, 'client', '.stamp'), stamp);
  const target = join(generatedDir, dialect);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

function withLock(fn: () => void): void {
  const lock = join(generatedDir, '.lock');
  mkdirSync(generatedDir, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS)
          rmSync(lock, { recursive: true, force: true });
      } catch {}
      // Another process is generating; a generate takes seconds, so a short blocking pause is fine.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
