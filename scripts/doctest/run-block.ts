import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type { DocBlock, DocDialect } from './doc-block.js';
import { writeBlock } from './materialize.js';
import { linkPrismaClient } from './prisma-client.js';

const exec = promisify(execFile);

/** How a run of one block ended. */
export interface BlockRun {
  readonly ok: boolean;
  readonly output: string;
}

/** Where to run a block, and the database it gets. */
export interface RunTarget {
  readonly root: string;
  /** Every block of the repository (or fixture): the `file=` modules and prisma schema of the block's home. */
  readonly blocks: readonly DocBlock[];
  readonly dialect?: DocDialect;
  /** Given to the program as `DATABASE_URL`. */
  readonly url?: string;
  readonly timeoutMs?: number;
}

/**
 * Runs a ts module block as a program: written into a fresh directory of its home's `.doctest`
 * (beside the `file=` blocks of the same file, and the client of its README's prisma schema for
 * the dialect), then imported by Node with the repository's `dev-source` condition and tsx, in an
 * empty working directory, with `DATABASE_URL` set, and what a deployment gives a server: `PORT`
 * (a port free at the time, so that runs beside each other never fight over one) and
 * `PUBLIC_ID_KEY` (32 random hex digits). It passes when its top level finishes without
 * throwing; the process then exits, as a server's start-up would go on serving.
 *
 * @example
 * const run = await runDocBlock(block, { root, blocks, dialect: 'postgres', url: db.url });
 * if (!run.ok) throw new Error(run.output);
 */
export async function runDocBlock(block: DocBlock, target: RunTarget): Promise<BlockRun> {
  const dir = join(
    block.home,
    '.doctest',
    `run-${target.dialect ?? 'plain'}-${process.pid}-${basename(block.source)}-${block.line}`,
  );
  const cwd = mkdtempSync(join(tmpdir(), 'snowkey-doc-'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    for (const b of target.blocks) {
      if (b.source === block.source && b.file && b !== block) writeBlock(b, dir, undefined, new Set());
    }
    linkPrismaClient(block.home, target.blocks, target.dialect ?? 'sqlite', dir);
    const { file } = writeBlock(block, dir, undefined, new Set());
    // tsx applies a tsconfig only to the files it includes, and a bare `**/*` skips dot directories.
    // The packages' sources (reached through `dev-source`) are included too, so their decorators
    // (@snowkey/http/nest's parameter decorators) compile as they do in the packages.
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(target.root, 'tsconfig.base.json'),
        include: ['**/*.ts', join(target.root, 'packages/*/src/**/*.ts')],
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, TSX_TSCONFIG_PATH: tsconfig };
    delete env.NODE_OPTIONS;
    if (target.url) env.DATABASE_URL = target.url;
    else delete env.DATABASE_URL;
    env.PORT = String(await freePort());
    env.PUBLIC_ID_KEY = randomBytes(16).toString('hex');
    const script = `await import(${JSON.stringify(new URL(`file://${file}`).href)}); process.exit(0);`;
    try {
      const { stdout, stderr } = await exec(
        process.execPath,
        [
          '--conditions=dev-source',
          '--import',
          import.meta.resolve('tsx'),
          '--input-type=module',
          '-e',
          script,
        ],
        { cwd, env, timeout: target.timeoutMs ?? 60_000, maxBuffer: 16 << 20 },
      );
      return { ok: true, output: stdout + stderr };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      return { ok: false, output: `${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** A TCP port no one listens on now: the kernel's pick for port 0, released at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The statements of a sql block, for drivers that take one at a time: split at each `;` that ends
 * a line (the blocks hold no procedures), with `--` comment lines kept inside their statement.
 *
 * @example
 * sqlStatements('CREATE TABLE a (id BIGINT);\nCREATE TABLE b (id BIGINT);'); // two statements
 */
export function sqlStatements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:--[^\n]*)?$/m)
    .map((s) => s.trim())
    .filter((s) => s.replace(/--[^\n]*/g, '').trim().length > 0);
}
