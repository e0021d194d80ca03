import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { danglingOf, dumpOf, relationsOf, Shards, type TestShard } from '../../merge/test/support/shards.js';
import { run } from '../src/index.js';

const ACCOUNTS = (p: string): [string, string][] =>
  Array.from({ length: 6 }, (_, i) => [`${p}${i}@x.io`, i < 2 ? `Same${i}` : `${p}${i}`]);

/** Runs the command in-process, as a pipe would (no terminal). */
async function snowkey(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}

describeEachDialect(
  'snowkey merge plan|run and snowkey rekey',
  (ctx) => {
    const shards = new Shards(ctx.dialect);
    let s1: TestShard;
    let s2: TestShard;
    const sources = () => ['--source', `S1=${s1.oracle.url}`, '--source', `2=${s2.oracle.url}`];
    const policies = [
      '--on-conflict',
      'accounts.handle=rename',
      '--on-conflict',
      'guilds.name=skip',
      '--exclude',
      'audit_log',
    ];

    beforeAll(async () => {
      s1 = await shards.create('c_s1', 'given', { base: 1000, accounts: ACCOUNTS('a') });
      s2 = await shards.create('c_s2', 'given', { base: 2000, accounts: ACCOUNTS('b') });
    });
    afterAll(() => shards.dropAll());

    test('GIVEN a plan without policies THEN it exits 1 naming the conflicts; with them, --json says ok', async () => {
      const target = await shards.create('c_plan');
      const bare = await snowkey(
        'merge',
        'plan',
        '--target',
        target.oracle.url,
        ...sources(),
        '--exclude',
        'audit_log',
      );
      expect(bare.code).toBe(1);
      expect(bare.stdout).toMatch(/accounts\.handle: 2 values are held already and the policy is fail/);
      const good = await snowkey(
        'merge',
        'plan',
        '--target',
        target.oracle.url,
        ...sources(),
        ...policies,
        '--layout',
        'gameServer',
        '--json',
      );
      expect(good.code, good.stderr).toBe(0);
      const plan = JSON.parse(good.stdout);
      expect(plan.ok).toBe(true);
      expect(plan.tables.find((t: { table: string }) => t.table === 'accounts').rows).toEqual({
        S1: 6,
        S2: 6,
      });
    });

    test('GIVEN merge run THEN it copies with plain progress lines, verifies, and exits 0; the target checks out by SQL', async () => {
      const target = await shards.create('c_run');
      const r = await snowkey(
        'merge',
        'run',
        '--target',
        target.oracle.url,
        ...sources(),
        ...policies,
        '--batch',
        '4',
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^progress copy accounts S2 4\/6$/m);
      expect(r.stderr).toMatch(/^progress copy accounts S2 6\/6 done$/m);
      expect(r.stdout).toMatch(/verified: every source row is in the target exactly once/);
      expect(await danglingOf(target.oracle)).toBe(0);
      const handles = await target.oracle.query<{ handle: string }>(
        "SELECT handle FROM accounts WHERE handle LIKE 'Same%' ORDER BY handle",
      );
      expect(handles.map((h) => h.handle)).toEqual(['Same0', 'Same0.S2', 'Same1', 'Same1.S2']);
      const again = await snowkey('merge', 'run', '--target', target.oracle.url, ...sources(), ...policies);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/this run: 0 rows/);
      const swapped = await snowkey(
        'merge',
        'run',
        '--target',
        target.oracle.url,
        '--source',
        `2=${s2.oracle.url}`,
        '--source',
        `S1=${s1.oracle.url}`,
        ...policies,
      );
      expect(swapped.code).toBe(2);
      expect(swapped.stderr).toMatch(/begun with other inputs/);
    });

    test('GIVEN a source or a target that does not exist THEN merge run and rekey exit 2 naming it, write nothing, and create nothing', async () => {
      const target = await shards.create('c_missing');
      const before = await dumpOf(target.oracle);
      const gone = (name: string) => {
        if (ctx.dialect === 'sqlite') return `file:${join(mkdtempSync(join(tmpdir(), 'sk-gone-')), name)}`;
        const u = new URL(s1.oracle.url);
        u.pathname = `/sk_gone_${process.pid}_${name}`;
        return u.toString();
      };
      const source = gone('s3.sqlite');
      const run = await snowkey(
        'merge',
        'run',
        '--target',
        target.oracle.url,
        ...sources(),
        '--source',
        `S3=${source}`,
        ...policies,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/does not exist|no such database/);
      expect(run.stdout).not.toMatch(/verified/);
      expect(await dumpOf(target.oracle)).toBe(before);
      const missingTarget = gone('merged.sqlite');
      const into = await snowkey('merge', 'run', '--target', missingTarget, ...sources(), ...policies);
      expect(into.code).toBe(2);
      const rekey = await snowkey(
        'rekey',
        '--source',
        source,
        '--target',
        target.oracle.url,
        '--layout',
        'gameServer',
        '--server-id',
        '3',
      );
      expect(rekey.code).toBe(2);
      if (ctx.dialect === 'sqlite') {
        expect(existsSync(source.slice('file:'.length))).toBe(false);
        expect(existsSync(missingTarget.slice('file:'.length))).toBe(false);
      }
      expect(await dumpOf(target.oracle)).toBe(before);
    });

    test.each([
      [['--on-conflict', 'accounts.handle=merge'], '--on-conflict'],
      [['--source', 'no-url'], '--source'],
      [['--key-collisions', 'ignore'], '--key-collisions'],
    ])('GIVEN %j THEN exit 2 naming %s', async (extra, flag) => {
      const r = await snowkey(
        'merge',
        'run',
        '--target',
        'file:/nonexistent/x.sqlite',
        ...sources(),
        ...extra,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`"${flag}"`);
    });

    test('GIVEN an AUTO_INCREMENT shard THEN snowkey rekey writes server 3 ids, verifies, and keeps every relation', async () => {
      const ai = await shards.create('c_ai', 'autoincrement', { base: 0, accounts: ACCOUNTS('c') });
      const target = await shards.create('c_rekeyed');
      const r = await snowkey(
        'rekey',
        '--source',
        ai.oracle.url,
        '--target',
        target.oracle.url,
        '--layout',
        'gameServer',
        '--server-id',
        '3',
        '--exclude',
        'audit_log',
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/verified/);
      const ids = await target.oracle.query<{ id: string }>('SELECT id FROM accounts');
      expect(ids).toHaveLength(6);
      expect(ids.every((x) => decode(BigInt(x.id), { layout: layouts.gameServer }).serverId === 3)).toBe(
        true,
      );
      expect(await relationsOf(target.oracle)).toBe(await relationsOf(ai.oracle));
    });
  },
  { label: 'cli_merge' },
);
