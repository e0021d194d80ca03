import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

// The workspace's own `snowkey` command, as a user of this repository reaches it after the
// README's steps (`npm test` installs, then builds): `pnpm exec snowkey`.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as {
  bin: Record<string, string>;
};

beforeAll(() => {
  // `pnpm test` builds first; a lone `vitest run packages/cli` builds what is missing.
  if (!existsSync(join(root, 'packages/cli/dist/cli.js'))) {
    execFileSync('pnpm', ['--filter', '@snowkey/core', '--filter', '@snowkey/cli', 'build'], { cwd: root });
  }
}, 300_000);

describe('the snowkey bin in this workspace', () => {
  test('GIVEN a fresh clone THEN the bin target is a file of the source tree, so install can link it before any build', () => {
    const target = join('packages/cli', manifest.bin.snowkey!);
    expect(target).toBe('packages/cli/bin/snowkey.js');
    const tracked = execFileSync('git', ['ls-files', '--error-unmatch', target], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(tracked.trim()).toBe(target);
    expect(existsSync(join(root, 'node_modules/.bin/snowkey'))).toBe(true);
  });

  test('GIVEN the build THEN `pnpm exec snowkey --help` prints the usage and exits 0', () => {
    const r = spawnSync('pnpm', ['exec', 'snowkey', '--help'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: snowkey /);
  });

  test('GIVEN the build THEN node_modules/.bin/snowkey decodes an id to stdout', () => {
    const r = spawnSync(
      join(root, 'node_modules/.bin/snowkey'),
      ['decode', '175928847299117063', '--layout', 'discord', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ id: '175928847299117063', workerId: 1 }),
    ]);
  });
});
