import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { VERSION } from '../src/version.js';
import { runCli } from './run-cli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the snowkey program', () => {
  test.each([
    ['--help', ['--help'], 0, /Usage: snowkey/],
    ['a subcommand --help', ['decode', '--help'], 0, /Usage: snowkey decode \[options\] <id\.\.\.>/],
    ['--version', ['--version'], 0, new RegExp(VERSION.replace(/\./g, '\\.'))],
    ['no command', [], 2, /Usage: snowkey/],
    ['an unknown command', ['frobnicate'], 2, /unknown command 'frobnicate'/],
  ])('GIVEN %s THEN it exits %i', async (_, argv, code, output) => {
    const r = await runCli(argv);
    expect(r.code).toBe(code);
    expect(r.stdout + r.stderr).toMatch(output);
  });

  test('GIVEN the version constant THEN it matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(VERSION).toBe(pkg.version);
  });

  test('GIVEN the real bin in a child process THEN it decodes to stdout with exit 0 and refuses bad ids with exit 2', () => {
    const bin = ['--conditions=dev-source', '--import', 'tsx', 'packages/cli/src/cli.ts'];
    const ok = spawnSync(
      process.execPath,
      [...bin, 'decode', '175928847299117063', '--layout', 'discord', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([
      {
        id: '175928847299117063',
        date: '2016-04-30T11:18:25.796Z',
        timestamp: 1462015105796,
        workerId: 1,
        processId: 0,
        sequence: 7,
      },
    ]);
    const bad = spawnSync(process.execPath, [...bin, 'decode', '17592884729911706x'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: "id" must be a decimal string.*received "17592884729911706x"/);
  });
});
