import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createGameSchema,
  createShards,
  type MergeRun,
  type MergeTotals,
  mergeShards,
  openDatabase,
  plainSnowflakePlayer,
  type Shard,
} from '../src/index.js';
import { harnessHost } from './support/harness-host.js';
import { countsOf, dumpOf } from './support/oracle.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const BATCH = 10;

/** The merge CLI in a child process of its own, on `target`. */
function spawnMerge(target: string, shards: readonly Shard[], extra: string[] = []): ChildProcess {
  const sources = shards.flatMap((s) => ['--source', `${s.serverId}=${s.ref.url}`]);
  return spawn(
    process.execPath,
    [
      '--conditions=dev-source',
      '--import',
      'tsx',
      'src/merge-cli.ts',
      '--target',
      target,
      '--batch',
      String(BATCH),
      ...sources,
      ...extra,
    ],
    { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** Resolves with the first stdout line `matches` accepts, as the child prints it. */
async function lineFrom(child: ChildProcess, matches: (line: string) => boolean): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) if (matches(line)) return line;
  throw new Error('the merge exited without printing the expected line');
}

async function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  const [, signal] = (await exit) as [number | null, NodeJS.Signals | null];
  return signal;
}

async function runToEnd(child: ChildProcess): Promise<string> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c;
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(err).toBe('');
  expect(code).toBe(0);
  return out;
}

/** The run the CLI printed as its `complete {...}` line. */
function completedRun(out: string): MergeRun {
  const line = out.split('\n').find((l) => l.startsWith('complete '));
  if (!line) throw new Error(`the merge did not complete:\n${out}`);
  return JSON.parse(line.slice('complete '.length)) as MergeRun;
}

describeEachDialect(
  'a merge killed with SIGKILL and run again',
  (ctx) => {
    let h: ReturnType<typeof harnessHost>;
    let shards: Shard[];
    let reference: string;
    let referenceTotals: MergeTotals;

    beforeAll(async () => {
      h = harnessHost(ctx.dialect);
      shards = await createShards(h.host, 'snowkey_k', [1, 2]);
      for (const shard of shards) {
        await plainSnowflakePlayer.play(shard, { serverId: shard.serverId, players: 40, writers: 2 });
      }
      const ref = await h.host.create('snowkey_k_reference');
      const target = openDatabase(ref);
      const sources = shards.map((s) => ({ serverId: s.serverId, db: openDatabase(s.ref) }));
      try {
        await createGameSchema(target, ctx.dialect);
        referenceTotals = (await mergeShards({ sources, target, batchSize: BATCH })).totals;
      } finally {
        await Promise.all([target.destroy(), ...sources.map((s) => s.db.destroy())]);
      }
      reference = await dumpOf(h.oracle('snowkey_k_reference'));
    });
    afterAll(async () => {
      await h?.dropAll();
    });

    test('GIVEN a child killed inside batch 7, after its inserts and before its commit THEN none of batch 7 is kept, and a rerun ends identical to an uninterrupted merge', async () => {
      const ref = await h.host.create('snowkey_k_paused');
      const db = h.oracle('snowkey_k_paused');
      const child = spawnMerge(ref.url, shards, ['--pause-inside-batch', '7']);
      await lineFrom(child, (l) => l === 'paused inside batch 7');
      expect(await killed(child)).toBe('SIGKILL');

      const progress = await db.query<{ n: string | number }>(
        'SELECT SUM(rows_copied) AS n FROM snowkey_merge_progress',
      );
      const present = Object.values(await countsOf(db)).reduce((a, b) => a + b, 0);
      expect(present).toBe(Number(progress[0]!.n));
      expect(present).toBeGreaterThan(0);

      expect(completedRun(await runToEnd(spawnMerge(ref.url, shards))).totals).toEqual(referenceTotals);
      expect(await dumpOf(db)).toBe(reference);
    });

    test('GIVEN a child killed at an arbitrary point mid-merge THEN a rerun ends identical to an uninterrupted merge, nothing lost or doubled', async () => {
      const ref = await h.host.create('snowkey_k_killed');
      const db = h.oracle('snowkey_k_killed');
      const child = spawnMerge(ref.url, shards);
      let seen = 0;
      await lineFrom(child, (l) => l.startsWith('progress ') && ++seen === 5);
      await killed(child);
      const [unfinished] = await db.query<{ n: string | number }>(
        'SELECT COUNT(*) AS n FROM snowkey_merge_progress WHERE done = 0',
      );
      const [finished] = await db.query<{ n: string | number }>(
        'SELECT COUNT(*) AS n FROM snowkey_merge_progress WHERE done = 1',
      );
      // It really was interrupted: 10 (table, server) pairs to merge, not all of them finished.
      expect(Number(finished!.n) + Number(unfinished!.n)).toBeLessThan(10);

      const resumed = completedRun(await runToEnd(spawnMerge(ref.url, shards)));
      expect(resumed.totals).toEqual(referenceTotals);
      expect(await dumpOf(db)).toBe(reference);
      const again = completedRun(await runToEnd(spawnMerge(ref.url, shards)));
      expect(again).toMatchObject({ batches: 0, rowsCopied: 0, totals: referenceTotals });
      expect(await dumpOf(db)).toBe(reference);
    });
  },
  { label: 'kill' },
);
