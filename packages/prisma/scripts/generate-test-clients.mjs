#!/usr/bin/env node
// Generates the Prisma clients of the @snowkey/prisma tests (one per dialect) into the
// gitignored test/generated/<dialect>/client, from test/prisma/models.prisma. Offline: Prisma 7's
// `generate` needs no engine, but its CLI insists that PRISMA_SCHEMA_ENGINE_BINARY names a file.
// Skips a dialect whose client is up to date, and takes a lock so parallel test files can all
// call it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const generated = join(root, 'test', 'generated');
const require = createRequire(join(root, 'package.json'));
const prismaCli = require.resolve('prisma/build/index.js');
const prismaVersion = JSON.parse(readFileSync(require.resolve('prisma/package.json'), 'utf8')).version;
const PROVIDERS = { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite' };
const LOCK_STALE_MS = 120_000;

function schemaFor(dialect) {
  return `generator client {
  provider     = "prisma-client"
  output       = "./client"
  moduleFormat = "esm"
}

datasource db {
  provider = "${PROVIDERS[dialect]}"
}

${readFileSync(join(root, 'test', 'prisma', 'models.prisma'), 'utf8')}`;
}

function stampOf(schema) {
  return createHash('sha256').update(`${prismaVersion}\n${schema}`).digest('hex');
}

function upToDate(dialect, stamp) {
  const file = join(generated, dialect, 'client', '.stamp');
  return existsSync(file) && readFileSync(file, 'utf8') === stamp;
}

function generate(dialect, schema, stamp) {
  const staging = join(generated, `.staging-${dialect}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'schema.prisma'), schema);
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', join(staging, 'schema.prisma')], {
    cwd: staging,
    // Prisma's progress lines go to stderr; on failure execFileSync's error carries them.
    stdio: 'pipe',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
  writeFileSync(join(staging, 'client', '.stamp'), stamp);
  const target = join(generated, dialect);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

/** Waits for another process's lock to go, checking every 100 ms; breaks a lock left by a crash. */
function withLock(fn) {
  const lock = join(generated, '.lock');
  mkdirSync(generated, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS)
          rmSync(lock, { recursive: true, force: true });
      } catch {}
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const wanted = Object.keys(PROVIDERS).map((dialect) => {
  const schema = schemaFor(dialect);
  return { dialect, schema, stamp: stampOf(schema) };
});
if (!wanted.every((w) => upToDate(w.dialect, w.stamp))) {
  withLock(() => {
    for (const { dialect, schema, stamp } of wanted) {
      if (!upToDate(dialect, stamp)) generate(dialect, schema, stamp);
    }
  });
}
