import { layouts, Snowflake } from '@snowkey/core';
import {
  BOOKKEEPING_TABLES,
  type MergeDatabase,
  MergeInputsChangedError,
  type MergeRunResult,
  type MergeSource,
  openDatabase as openMergeDatabase,
  resetMerge,
  runMerge,
  verifyMerge,
} from '@snowkey/merge';
import { describeEachDialect } from '@snowkey/test-harness';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGameDatabase, createShards, GAME_POLICIES, openDatabase, type Shard } from '../src/index.js';
import { harnessHost } from './support/harness-host.js';
import { dumpOf } from './support/oracle.js';

/** A name that fills its VARCHAR(40) column: a suffix must cut it, never overflow it. */
const LONG = 'Bartholomew'.padEnd(40, 'x');
const BATCH = 3;

/** What each of three servers holds, in id order: names clash across servers on purpose. */
const SERVERS = [
  { serverId: 1, players: ['Aria', 'Aria.S2', LONG], guild: 'Dawnguard' },
  { serverId: 2, players: ['Aria', LONG, 'Bram'], guild: 'Dawnguard' },
  { serverId: 3, players: ['Aria', LONG], guild: 'Dawnguard' },
];

/** Inserts the server's players and its guild (led by its first player) with snowflake ids. */
async function fill(db: Knex, serverId: number, players: string[], guild: string): Promise<void> {
  const ids = new Snowflake({ layout: layouts.gameServer, serverId });
  const playerIds = [];
  for (const name of players) {
    const id = ids.nextId();
    await db('players').insert({ id, name, home_server: serverId, level: 1, created_at: 1 });
    playerIds.push(id);
  }
  await db('guilds').insert({ id: ids.nextId(), name: guild, leader_id: playerIds[0], created_at: 1 });
}

/** Undoes the merge on a target (`resetMerge`), when it holds one. */
async function reset(db: MergeDatabase, sources: MergeSource[]): Promise<void> {
  const begun = await db.query(`SELECT 1 AS x FROM ${BOOKKEEPING_TABLES.mergeInputs}`).then(
    () => true,
    () => false,
  );
  if (begun) await resetMerge({ sources, target: db, onConflict: GAME_POLICIES });
}

describeEachDialect(
  'merge edge cases: taken suffixes, full-length names, three servers, identical rows',
  (ctx) => {
    let h: ReturnType<typeof harnessHost>;
    let shards: Shard[];
    let dbs: Knex[];
    let engine: MergeSource[];
    let reference: { dump: string; run: MergeRunResult };

    /** Merges the three shards into the harness database `name` with `run`. */
    async function withTarget<T>(name: string, run: (target: MergeDatabase) => Promise<T>): Promise<T> {
      const target = await openMergeDatabase((await createGameDatabase(h.host, 'snowkey_e', name)).url);
      try {
        return await run(target);
      } finally {
        await target.close();
      }
    }
    const sources = () => engine;
    const merge = (
      target: MergeDatabase,
      more: { stopAfterBatches?: number; sources?: MergeSource[] } = {},
    ) => runMerge({ sources: sources(), target, onConflict: GAME_POLICIES, batchSize: BATCH, ...more });

    beforeAll(async () => {
      h = harnessHost(ctx.dialect);
      shards = await createShards(h.host, 'snowkey_e', [1, 2, 3]);
      dbs = shards.map((s) => openDatabase(s.ref));
      for (const [i, s] of SERVERS.entries()) await fill(dbs[i]!, s.serverId, s.players, s.guild);
      engine = await Promise.all(
        shards.map(async (s) => ({ label: s.label, db: await openMergeDatabase(s.ref.url) })),
      );
      const run = await withTarget('reference', (target) => merge(target));
      reference = { dump: await dumpOf(h.oracle('snowkey_e_reference')), run };
    });
    afterAll(async () => {
      await Promise.all((dbs ?? []).map((d) => d.destroy()));
      await Promise.all((engine ?? []).map((s) => s.db.close()));
      await h?.dropAll();
    });

    test('GIVEN Aria on three servers and a player already named Aria.S2 THEN S2 gets Aria.S2.2 and S3 gets Aria.S3, all recorded, by SQL', async () => {
      const merged = h.oracle('snowkey_e_reference');
      const names = await merged.query<{ name: string; home_server: number }>(
        'SELECT name, home_server FROM players ORDER BY id',
      );
      const cut = LONG.slice(0, 37);
      expect(names.map((p) => [p.name, Number(p.home_server)])).toEqual([
        ['Aria', 1],
        ['Aria.S2', 1],
        [LONG, 1],
        ['Aria.S2.2', 2],
        [`${cut}.S2`, 2],
        ['Bram', 2],
        ['Aria.S3', 3],
        [`${cut}.S3`, 3],
      ]);
      const guilds = await merged.query<{ name: string }>('SELECT name FROM guilds ORDER BY id');
      expect(guilds.map((g) => g.name)).toEqual(['Dawnguard', 'Dawnguard.S2', 'Dawnguard.S3']);
      const renames = await merged.query<{ source_label: string; old_value: string; new_value: string }>(
        `SELECT source_label, old_value, new_value FROM ${BOOKKEEPING_TABLES.renames} ORDER BY table_name, row_key`,
      );
      expect(renames.map((r) => [r.source_label, r.old_value, r.new_value])).toEqual([
        ['S2', 'Dawnguard', 'Dawnguard.S2'],
        ['S3', 'Dawnguard', 'Dawnguard.S3'],
        ['S2', 'Aria', 'Aria.S2.2'],
        ['S2', LONG, `${cut}.S2`],
        ['S3', 'Aria', 'Aria.S3'],
        ['S3', LONG, `${cut}.S3`],
      ]);
      expect(reference.run.totals).toEqual({ copied: 11, skipped: 0, collisions: 0, renames: 6 });
      const target = await openMergeDatabase(merged.url);
      try {
        const v = await verifyMerge({ sources: sources(), target, onConflict: GAME_POLICIES });
        expect(v.problems).toEqual([]);
      } finally {
        await target.close();
      }
    });

    test('GIVEN the same merge stopped after a dozen of its chunks spread over every phase WHEN resumed THEN each ends identical to the uninterrupted merge, renames included', async () => {
      expect(reference.run.batches).toBeGreaterThan(10);
      await withTarget('resumed', async (target) => {
        const step = Math.ceil(reference.run.batches / 12);
        for (let k = 1; k < reference.run.batches; k += step) {
          await reset(target, sources());
          const first = await merge(target, { stopAfterBatches: k });
          expect(first.complete, `stopped after ${k}`).toBe(false);
          const rest = await merge(target);
          expect(rest.totals, `resumed after ${k}`).toEqual(reference.run.totals);
          expect(await dumpOf(h.oracle('snowkey_e_resumed')), `resumed after ${k}`).toBe(reference.dump);
        }
      });
    }, 240_000);

    test('GIVEN a finished merge WHEN run twice more THEN nothing is copied and the totals stay those of the first run', async () => {
      await withTarget('rerun', async (target) => {
        await merge(target);
        for (const _ of [1, 2]) {
          const again = await merge(target);
          expect(again).toMatchObject({ complete: true, batches: 0, run: { copied: 0, renames: 0 } });
          expect(again.totals).toEqual(reference.run.totals);
        }
      });
      expect(await dumpOf(h.oracle('snowkey_e_rerun'))).toBe(reference.dump);
    });

    test.each([
      ['the servers in another order', [2, 1, 3]],
      ['a server left out', [1, 2]],
    ])(
      'GIVEN a merge stopped half way WHEN resumed with %s THEN it is refused and nothing changes',
      async (_, order) => {
        await withTarget(`order${order.length}${order[0]}`, async (target) => {
          await merge(target, { stopAfterBatches: 5 });
          const oracle = h.oracle(`snowkey_e_order${order.length}${order[0]}`);
          const before = await dumpOf(oracle);
          const other = order.map((id) => sources()[id - 1]!);
          await expect(merge(target, { sources: other })).rejects.toThrow(MergeInputsChangedError);
          expect(await dumpOf(oracle)).toBe(before);
          const rest = await merge(target);
          expect(rest.totals).toEqual(reference.run.totals);
          expect(await dumpOf(oracle)).toBe(reference.dump);
        });
      },
    );

    test('GIVEN two AUTO_INCREMENT shards with one key holding identical values THEN that is a key collision: counted once, left out, the figures agree', async () => {
      const twins = await createShards(h.host, 'snowkey_t', [1, 2], 'autoincrement');
      const [s1, s2] = await Promise.all(twins.map((s) => openMergeDatabase(s.ref.url)));
      const target = await openMergeDatabase(
        (await createGameDatabase(h.host, 'snowkey_t', 'merged', 'autoincrement')).url,
      );
      try {
        const same = [1, 'Aria', 1, 1, 1];
        const insert =
          'INSERT INTO players (id, name, home_server, level, created_at) VALUES (?, ?, ?, ?, ?)';
        await s1!.execute(insert, same);
        await s2!.execute(insert, same);
        await s2!.execute(insert, [2, 'Bram', 1, 1, 1]);
        const inputs = {
          sources: [
            { label: 'S1', db: s1! },
            { label: 'S2', db: s2! },
          ],
          target,
          onConflict: GAME_POLICIES,
          keyCollisions: 'record' as const,
        };
        const run = await runMerge(inputs);
        const v = await verifyMerge(inputs);
        const merged = h.oracle('snowkey_t_merged');
        const [count] = await merged.query<{ n: string | number }>('SELECT COUNT(*) AS n FROM players');
        const recorded = await merged.query<{ source_position: number; row_key: string }>(
          `SELECT source_position, row_key FROM ${BOOKKEEPING_TABLES.collisions}`,
        );
        expect(Number(count!.n)).toBe(2);
        expect(recorded.map((r) => [Number(r.source_position), r.row_key])).toEqual([[1, '1']]);
        expect(run.totals.collisions).toBe(1);
        const players = v.tables.find((t) => t.table === 'players')!;
        expect(players).toMatchObject({
          sourceRows: { S1: 1, S2: 2 },
          targetRows: 2,
          leftOut: 1,
          missing: 0,
        });
        expect(v.ok).toBe(false);
      } finally {
        await Promise.all([s1!.close(), s2!.close(), target.close()]);
      }
    });
  },
  { label: 'edge' },
);
