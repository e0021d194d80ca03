// Generates Prisma 7 clients without a network: one per dialect, from a file of models only.
// Shared by the @snowkey/prisma tests (packages/prisma/scripts/generate-test-clients.mjs) and the
// Prisma 合服 example (examples/prisma/src/prisma-clients.ts), so the workarounds below live once.
//
// Why it is more than `prisma generate`:
// - Prisma 7's `generate` needs no engine, but its CLI refuses to start unless
//   PRISMA_SCHEMA_ENGINE_BINARY names an existing file (and cannot download one here): any file
//   will do, so it is given node itself unless the caller set one.
// - One models file serves three providers: the generator and datasource blocks are written here.
// - With `snowkeyDataModel`, @snowkey/prisma's own generator runs from its source (through tsx) and
//   writes <outDir>/<dialect>/snowkey/data-model.ts, as `snowkey-prisma-generator` does in an app.
// - A client is regenerated only when its schema or the Prisma version changed (a stamp file), so
//   calling this before every test run or example start costs a file read.
// - Parallel callers (vitest forks, the demo's child processes) wait on a lock directory, and a
//   client appears by an atomic rename of a finished staging directory, never half-written.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROVIDERS = { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite' };
const LOCK_STALE_MS = 120_000;
const REPO = fileURLToPath(new URL('..', import.meta.url));
/** @snowkey/prisma's generator, its source files (a change to them regenerates) and how to start it. */
const SNOWKEY_GENERATOR = join(REPO, 'packages', 'prisma', 'src', 'generator.ts');
const SNOWKEY_GENERATOR_SOURCES = ['generator.ts', 'data-model-source.ts'].map((f) =>
  join(REPO, 'packages', 'prisma', 'src', f),
);

/**
 * Makes sure `<outDir>/<dialect>/client` holds a client generated from `models` for each dialect,
 * generating the missing or stale ones, and returns each client's directory.
 *
 * @example
 * const dirs = ensurePrismaClients({
 *   packageDir: '/repo/examples/prisma',          // where `prisma` resolves from
 *   models: '/repo/examples/prisma/prisma/game.prisma',
 *   outDir: '/repo/examples/prisma/generated',
 *   dialects: ['sqlite'],
 * });
 * const { PrismaClient } = await import(join(dirs.sqlite, 'client.ts'));
 */
export function ensurePrismaClients(options) {
  const { dialects = Object.keys(PROVIDERS), snowkeyDataModel = false } = options;
  const outDir = resolve(options.outDir);
  for (const dialect of dialects) {
    if (!(dialect in PROVIDERS)) {
      throw new TypeError(
        `"dialects" must hold postgres, mysql or sqlite (received ${JSON.stringify(dialect)})`,
      );
    }
  }
  const require = createRequire(join(resolve(options.packageDir), 'package.json'));
  const cli = require.resolve('prisma/build/index.js');
  const version = JSON.parse(readFileSync(require.resolve('prisma/package.json'), 'utf8')).version;
  const modelsText = readFileSync(options.models, 'utf8');
  const wanted = dialects.map((dialect) => {
    const schema = schemaFor(dialect, modelsText, snowkeyDataModel);
    const stamp = createHash('sha256').update(`${version}\n${schema}`).digest('hex');
    return { dialect, schema, stamp };
  });
  const upToDate = ({ dialect, stamp }) => {
    const file = join(outDir, dialect, 'client', '.stamp');
    return existsSync(file) && readFileSync(file, 'utf8') === stamp;
  };
  if (!wanted.every(upToDate)) {
    withLock(outDir, () => {
      for (const w of wanted) if (!upToDate(w)) generate(cli, outDir, w);
    });
  }
  return Object.fromEntries(dialects.map((d) => [d, join(outDir, d, 'client')]));
}

function schemaFor(dialect, modelsText, snowkeyDataModel) {
  return `generator client {
  provider     = "prisma-client"
  output       = "./client"
  moduleFormat = "esm"
}
${snowkeyDataModel ? snowkeyGeneratorBlock() : ''}
datasource db {
  provider = "${PROVIDERS[dialect]}"
}

${modelsText}`;
}

/** The generator block of @snowkey/prisma's generator, run from source; a hash of it marks its version. */
function snowkeyGeneratorBlock() {
  const tsx = createRequire(join(REPO, 'package.json')).resolve('tsx');
  const hash = createHash('sha256');
  for (const file of SNOWKEY_GENERATOR_SOURCES) hash.update(readFileSync(file));
  const command = `node --conditions=dev-source --import ${pathToFileURL(tsx).href} ${SNOWKEY_GENERATOR}`;
  return `
// source ${hash.digest('hex')}
generator snowkey {
  provider = ${JSON.stringify(command)}
  output   = "./snowkey"
}
`;
}

function generate(cli, outDir, { dialect, schema, stamp }) {
  const staging = join(outDir, `.staging-${dialect}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'schema.prisma'), schema);
  execFileSync(process.execPath, [cli, 'generate', '--schema', join(staging, 'schema.prisma')], {
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
  const target = join(outDir, dialect);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

/** Waits for another process's lock to go, checking every 100 ms; breaks a lock left by a crash. */
function withLock(outDir, fn) {
  const lock = join(outDir, '.lock');
  mkdirSync(outDir, { recursive: true });
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
      // A generate takes seconds, so a short blocking pause is fine (and works outside async code).
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
