#!/usr/bin/env node
// Makes `npm test` / `npm run demo` work on a fresh clone with only node and npm: it finds or
// fetches the pinned pnpm, installs the workspace when the lockfile changed, then runs the
// given root script under pnpm. Extra arguments are passed through.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const [script, ...rest] = process.argv.slice(2);
if (!script) {
  console.error('usage: node scripts/bootstrap.mjs <root script> [args...]');
  process.exit(2);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
  if (probe.status === 0 && probe.stdout.trim().split('.')[0] === pinned.split('.')[0]) return ['pnpm', []];
  console.error(`[snowkey] pnpm ${pinned} not on PATH; running it through npx`);
  return ['npx', ['--yes', `pnpm@${pinned}`]];
}

const [pnpm, pre] = pnpmCommand();
const lock = join(root, 'pnpm-lock.yaml');
const installed = join(root, 'node_modules', '.pnpm', 'lock.yaml');
const upToDate = existsSync(installed) && readFileSync(installed, 'utf8') === readFileSync(lock, 'utf8');
if (!upToDate) {
  const code = run(pnpm, [...pre, 'install', '--frozen-lockfile']);
  if (code !== 0) process.exit(code);
}
process.exit(run(pnpm, [...pre, 'run', script, ...rest]));
