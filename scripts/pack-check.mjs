// Packs every public package into .tmp/packs and checks each tarball as a user would get it:
// publint --strict, attw (every entry under node10, node16 from CJS and ESM, and bundler), the
// manifests in sync (scripts/package-manifests.mjs --check). Prints each tarball's size and holds
// core to its size budget. `--no-build` skips the build (CI has just built for the tests).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const repo = fileURLToPath(new URL('..', import.meta.url));
const out = join(repo, '.tmp/packs');

const run = (cmd, args, cwd = repo) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** The bytes of every file in a .tgz (tar: 512-byte headers, size in octal at offset 124). */
function unpackedBytes(tgz) {
  const tar = gunzipSync(readFileSync(tgz));
  let total = 0;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(
      header.subarray(124, 136).toString('latin1').replace(/\0.*$/, '').trim() || '0',
      8,
    );
    total += size;
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return total;
}

if (!process.argv.includes('--no-build')) run('pnpm', ['build']);
run('node', ['scripts/package-manifests.mjs', '--check']);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const failures = [];
const rows = [];
/** Unpacked size limits, in KB of 1000 bytes: core loads in browsers and every adapter installs it. */
const BUDGET_KB = { '@snowkey/core': 400 };
for (const dir of readdirSync(join(repo, 'packages')).sort()) {
  const pkg = JSON.parse(readFileSync(join(repo, 'packages', dir, 'package.json'), 'utf8'));
  if (pkg.private) continue;
  const tgz = join(
    out,
    run('pnpm', ['pack', '--pack-destination', out], join(repo, 'packages', dir))
      .trim()
      .split('\n')
      .pop()
      .split('/')
      .pop(),
  );
  for (const [name, args] of [
    ['publint', ['exec', 'publint', 'run', '--strict', '--pack', 'false', tgz]],
    ['attw', ['exec', 'attw', tgz, '--format', 'ascii']],
  ]) {
    try {
      run('pnpm', args);
    } catch (err) {
      failures.push(`${pkg.name}: ${name}\n${err.stdout}${err.stderr}`);
    }
  }
  const unpacked = unpackedBytes(tgz);
  const budget = BUDGET_KB[pkg.name];
  if (budget !== undefined && unpacked > budget * 1000)
    failures.push(`${pkg.name}: unpacked ${(unpacked / 1000).toFixed(1)} KB, over its ${budget} KB budget`);
  rows.push([pkg.name, (statSync(tgz).size / 1000).toFixed(1), (unpacked / 1000).toFixed(1)]);
}
console.log('| package | packed KB | unpacked KB |\n| --- | ---: | ---: |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
if (failures.length > 0) {
  console.error(`\n${failures.join('\n\n')}`);
  process.exit(1);
}
console.log(`\n${rows.length} tarballs in .tmp/packs: publint --strict and attw clean, within budget`);
