import { DATABASE_HOLDER, decode, layouts } from '@snowkey/core';
import { describeEachDialect, selectedDialects } from '@snowkey/test-harness';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

describe('snowkey sql install (printing)', () => {
  test('GIVEN --dialect postgres THEN it prints the lease table, the node registration and the PL/pgSQL function', async () => {
    const { code, stdout, stderr } = await runCli([
      'sql',
      'install',
      '--dialect',
      'postgres',
      '--layout',
      'twitter',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('CREATE TABLE IF NOT EXISTS snowkey_node_leases');
    expect(stdout).toContain('CREATE OR REPLACE FUNCTION snowkey_next_id() RETURNS bigint');
    expect(stdout).toContain(`- ${layouts.twitter.epoch}) / 1)`);
  });

  test.each([
    ['no dialect', ['sql', 'install'], /^error: "--dialect" must be postgres or mysql/],
    ['sqlite', ['sql', 'install', '--dialect', 'sqlite'], /^error: "--dialect" must be postgres or mysql/],
    [
      'a dialect the URL contradicts',
      ['sql', 'install', '--dialect', 'mysql', '--url', 'postgres://x@127.0.0.1/db'],
      /^error: "--dialect" must be postgres, the dialect of --url/,
    ],
    [
      'too many node ids',
      ['sql', 'install', '--dialect', 'postgres', '--nodes', '2000'],
      /^error: "nodes" must be/,
    ],
  ])('GIVEN %s THEN it exits 2 naming the flag', async (_what, args, message) => {
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });
});

describeEachDialect(
  'snowkey sql install --url',
  (ctx) => {
    test('GIVEN a database THEN install registers the highest node ids AND snowkey_next_id() issues ids from them AND uninstall frees them', async () => {
      const installed = await runCli(['sql', 'install', '--url', ctx.db.url, '--nodes', '2']);
      expect(installed.stderr).toBe('');
      expect(installed.stdout).toBe(
        'installed snowkey_next_id() (layout snowkey); the database holds node ids 1023, 1022\n',
      );
      // Installing again keeps what is registered.
      expect((await runCli(['sql', 'install', '--url', ctx.db.url, '--nodes', '2'])).code).toBe(0);
      const [{ id }] = (await ctx.db.query<{ id: string }>('SELECT snowkey_next_id() AS id')) as [
        { id: string },
      ];
      expect([1022, 1023]).toContain(decode(id, { layout: layouts.snowkey }).workerId);
      const held = await ctx.db.query<{ node_id: string; holder: string | null }>(
        'SELECT node_id, holder FROM snowkey_node_leases ORDER BY node_id',
      );
      expect(held.map((r) => [Number(r.node_id), r.holder])).toEqual([
        [1022, DATABASE_HOLDER],
        [1023, DATABASE_HOLDER],
      ]);

      const removed = await runCli(['sql', 'uninstall', '--url', ctx.db.url]);
      expect(removed.stderr).toBe('');
      expect(removed.code).toBe(0);
      const freed = await ctx.db.query<{ holder: string | null; high_water: string }>(
        'SELECT holder, high_water FROM snowkey_node_leases',
      );
      expect(freed.map((r) => r.holder)).toEqual([null, null]);
      expect(Math.max(...freed.map((r) => Number(r.high_water)))).toBe(
        decode(id, { layout: layouts.snowkey }).timestamp,
      );
    });
  },
  { dialects: selectedDialects().filter((d) => d !== 'sqlite') },
);
