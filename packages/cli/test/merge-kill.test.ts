import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { dumpOf, Shards, type TestShard } from '../../merge/test/support/shards.js';

/**
 * `snowkey merge run` and `snowkey rekey` as real processes, killed with SIGKILL after a random
 * number of committed batches (twice: the first resume is killed too), then run to the end: the
 * target must equal an uninterrupted run's, row by row, bookkeeping included. The kill points
 * come from a seed, printed, and taken from SNOWKEY_KILL_SEED when set, so a failure reproduces.
 */
const SEED = Number(process.env.SNOWKEY_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`[merge-kill] SNOWKEY_KILL_SEED=${SEED}`);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BATCH = '5';
const AT = '2026-03-01T00:00:00Z';
const ACCOUNTS = (p: string): [string, string][] =>
  Array.from({ length: 18 }, (_, i) => [`${p}${i}@x.io`, i % 3 === 0 ? `Same${i}` : `${p}${i}`]);
const RECORDS = [
  'SELECT table_name, row_key, column_name, source_label, old_value, new_value FROM snowkey_merge_renames ORDER BY table_name, row_key',
  'SELECT table_name, source_position, row_key, target_key FROM snowkey_merge_skips ORDER BY table_name, source_position, row_key',
  'SELECT phase, table_name, source_position, rows_done, rows_copied, rows_skipped, renames, done FROM snowkey_merge_progress ORDER BY phase, table_name, source_position',
];
const MAP = ['SELECT table_name, old_id, new_id FROM snowkey_rekey_map ORDER BY table_name, old_id'];

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cli(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    ['--conditions=dev-source', '--import', 'tsx', 'packages/cli/src/cli.ts', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Runs to the end; resolves to the number of progress lines it printed. */
async function toEnd(args: string[]): Promise<number> {
  const child = cli(args);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c;
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code, `${out}\n${err}`).toBe(0);
  expect(out).toMatch(/verified/);
  return err.split('\n').filter((l) => l.startsWith('progress ')).length;
}

/** Kills the process with SIGKILL once it has printed `lines` progress lines. */
async function killAfter(args: string[], lines: number): Promise<void> {
  const child = cli(args);
  const exit = once(child, 'exit');
  let seen = 0;
  for await (const line of createInterface({ input: child.stderr! })) {
    if (line.startsWith('progress ') && ++seen >= lines) break;
  }
  child.kill('SIGKILL');
  await exit;
}

describeEachDialect(
  'merge run and rekey killed with SIGKILL at random points',
  (ctx) => {
    const shards = new Shards(ctx.dialect);
    const rng = seeded(SEED + ctx.dialect.length);
    let s1: TestShard;
    let s2: TestShard;
    let ai: TestShard;
    const mergeArgs = (target: TestShard) => [
      'merge',
      'run',
      '--target',
      target.oracle.url,
      '--source',
      `S1=${s1.oracle.url}`,
      '--source',
      `S2=${s2.oracle.url}`,
      '--on-conflict',
      'accounts.handle=rename',
      '--on-conflict',
      'guilds.name=skip',
      '--exclude',
      'audit_log',
      '--batch',
      BATCH,
    ];
    const rekeyArgs = (target: TestShard) => [
      'rekey',
      '--source',
      ai.oracle.url,
      '--target',
      target.oracle.url,
      '--layout',
      'gameServer',
      '--server-id',
      '7',
      '--exclude',
      'audit_log',
      '--batch',
      BATCH,
      '--at',
      AT,
    ];

    beforeAll(async () => {
      s1 = await shards.create('k_s1', 'given', { base: 1000, accounts: ACCOUNTS('a') });
      s2 = await shards.create('k_s2', 'given', { base: 2000, accounts: ACCOUNTS('b') });
      ai = await shards.create('k_ai', 'autoincrement', { base: 0, accounts: ACCOUNTS('c') });
    });
    afterAll(() => shards.dropAll());

    test.each([
      ['merge run', mergeArgs, RECORDS],
      ['rekey', rekeyArgs, MAP],
    ] as const)(
      'GIVEN %s killed twice at random batches THEN the resumed result equals an uninterrupted run, row by row',
      async (_, args, records) => {
        const reference = await shards.create('k_ref');
        const lines = await toEnd(args(reference));
        expect(lines).toBeGreaterThan(10);
        const expected = await dumpOf(reference.oracle, records);
        for (const round of [1, 2]) {
          const target = await shards.create(`k_killed${round}`);
          const first = 1 + Math.floor(rng() * (lines - 2));
          const second = 1 + Math.floor(rng() * (lines - first));
          await killAfter(args(target), first);
          await killAfter(args(target), second);
          await toEnd(args(target));
          expect(
            await dumpOf(target.oracle, records),
            `seed ${SEED}, kills after ${first} then ${second} lines`,
          ).toBe(expected);
        }
      },
      // Seven processes, each starting Node and tsx.
      240_000,
    );
  },
  { label: 'kill' },
);
