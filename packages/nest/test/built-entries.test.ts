import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { decode, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PLAYERS_DDL } from './support/players-app.js';

// What a user installs: the built CommonJS and ESM entries of @snowkey/nest (and of core and http
// under them), each loaded by plain Node in a child process (no dev-source condition, no loader)
// and run as a Nest application over HTTP, on every dialect.

const pkg = fileURLToPath(new URL('../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

beforeAll(() => {
  // `pnpm test` builds first; a lone run of this file builds what is missing.
  const missing = ['core', 'http', 'nest'].filter((p) => !existsSync(`${pkg}/../${p}/dist`));
  if (missing.length > 0) {
    execFileSync('pnpm', missing.flatMap((p) => ['--filter', `@snowkey/${p}`]).concat('build'), {
      cwd: pkg,
      stdio: 'pipe',
    });
  }
}, 300_000);

interface Started {
  url: string;
  nodeId: number;
  holder: string;
  resolved: string;
}

/** Runs a fixture in plain Node, resolving with its first line (the app listens) and a way to close it. */
function run(script: string, env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [fixture(script)], { env: childEnv });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`${script} exited: ${stderr}`);
    return JSON.parse(line.value) as unknown;
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    started: next() as Promise<Started>,
    async close() {
      child.stdin.write('close\n');
      const last = (await next()) as { closed: string };
      return { ...last, code: (await exited).code };
    },
    async terminate() {
      child.kill('SIGTERM');
      return exited;
    },
    kill: () => child.kill('SIGKILL'),
  };
}

test('GIVEN @nestjs/terminus cannot be resolved THEN the main entry still loads with import() and require(), and /terminus does not', () => {
  // Both resolvers refuse terminus: an application without it must be able to use the main entry.
  const script = `
    import { createRequire, register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(
      'export async function resolve(s, c, next) { if (s.startsWith("@nestjs/terminus")) throw new Error("no terminus"); return next(s, c); }'));
    const require = createRequire(process.cwd() + '/noop.js');
    const Module = require('node:module');
    const resolveFilename = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (request.startsWith('@nestjs/terminus')) throw new Error('no terminus');
      return resolveFilename.call(this, request, ...rest);
    };
    const esm = await import('@snowkey/nest');
    const cjs = require('@snowkey/nest');
    const terminus = await import('@snowkey/nest/terminus').then(() => 'loaded', (e) => e.message);
    console.log(JSON.stringify({ esm: typeof esm.SnowkeyModule, cjs: typeof cjs.SnowkeyModule, terminus }));
  `;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: pkg,
    env,
    encoding: 'utf8',
  });
  expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({
    esm: 'function',
    cjs: 'function',
    terminus: 'no terminus',
  });
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describeEachDialect('@snowkey/nest built entries in plain Node', (ctx) => {
  const children: Array<ReturnType<typeof run>> = [];
  beforeAll(async () => {
    await ctx.db.query(PLAYERS_DDL);
  });
  afterAll(() => {
    for (const child of children) child.kill();
  });

  test.each([
    ['require()', 'players-app-cjs.cjs', /dist\/index\.cjs$/],
    ['import()', 'players-app-esm.mjs', /dist\/index\.js$/],
  ])(
    'GIVEN the entry loaded with %s THEN the app leases, serves ids, answers 400s and releases on close',
    async (_, script, entry) => {
      const child = run(script, {
        SNOWKEY_DIALECT: ctx.dialect,
        DATABASE_URL: ctx.db.url,
        DATABASE_FILE: ctx.db.filename ?? '',
      });
      children.push(child);
      const app = await child.started;
      expect(app.resolved).toMatch(entry);

      const held = await ctx.db.query<{ node_id: unknown; holder: string | null }>(
        'SELECT node_id, holder FROM snowkey_node_leases WHERE holder IS NOT NULL',
      );
      expect(held.map((r) => [Number(r.node_id), r.holder])).toEqual([[app.nodeId, app.holder]]);

      const res = await post(`${app.url}/players`, { name: script });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { id: string };
      const [row] = await ctx.db.query<{ id: string }>('SELECT id FROM players WHERE name = ?', [script]);
      expect(row!.id).toBe(body.id);
      expect(decode(BigInt(body.id), { layout: layouts.default }).workerId).toBe(app.nodeId);

      const found = await fetch(`${app.url}/players/${body.id}`);
      expect(await found.json()).toEqual({ id: body.id, name: script });
      expect((await fetch(`${app.url}/players/12x`)).status).toBe(400);
      const health = (await (await fetch(`${app.url}/healthz/ready`)).json()) as {
        lease: { nodeId: number };
      };
      expect(health.lease.nodeId).toBe(app.nodeId);

      expect(await child.close()).toEqual({ closed: 'released', code: 0 });
      const after = await ctx.db.query<{ holder: string | null }>(
        'SELECT holder FROM snowkey_node_leases WHERE holder IS NOT NULL',
      );
      expect(after).toEqual([]);
    },
  );

  test('GIVEN SIGTERM to an app with enableShutdownHooks() THEN the process ends and its lease row is released', async () => {
    const child = run('players-app-esm.mjs', {
      SNOWKEY_DIALECT: ctx.dialect,
      DATABASE_URL: ctx.db.url,
      DATABASE_FILE: ctx.db.filename ?? '',
    });
    children.push(child);
    const app = await child.started;
    const held = async () =>
      (
        await ctx.db.query<{ node_id: unknown }>(
          'SELECT node_id FROM snowkey_node_leases WHERE holder IS NOT NULL',
        )
      ).map((r) => Number(r.node_id));
    expect(await held()).toEqual([app.nodeId]);
    expect(await child.terminate()).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await held()).toEqual([]);
  });
});
