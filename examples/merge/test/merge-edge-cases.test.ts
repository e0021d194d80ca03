import { layouts, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createGameDatabase,
  createShards,
  ensureMergeTables,
  GAME_TABLES,
  MERGE_TABLES,
  type MergeRun,
  mergeShards,
  openDatabase,
  type Shard,
  verifyMerge,
} from '../src/index.js';
import { harnessHost } from './support/harness-host.js';
import { dumpOf } from './support/oracle.js';

/** A name that fills its VARCHAR(40) column: a suffix must cut it, never overflow it. */
const LONG = 'Bartholomew'.padEnd(40, 'x');
const BATCH = 2;

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

/** Empties a target, game tables children first, and its bookkeeping. */
async function reset(db: Knex): Promise<void> {
  for (const t of [...GAME_TABLES].reverse()) await db(t.name).del();
  await ensureMergeTables(db);
  for (const t of Object.values(MERGE_TABLES)) await db(t).del();
}

describeEachDialect(
  'merge edge cases: taken suffixes, full-length names, three servers, identical rows',
  (ctx) => {
    let h: ReturnType<typeof harnessHost>;
    let shards: Shard[];
    let dbs: Knex[];
    let reference: { dump: string; run: MergeRun };

    /** Merges the three shards into the harness database `name` with `run`. */
    async function withTarget<T>(name: string, run: (target: Knex) => Promise<T>): Promise<T> {
      const target = openDatabase(await createGameDatabase(h.host, 'snowkey_e', name));
      try {
        return await run(target);
      } finally {
        await target.destroy();
      }
    }
    const sources = () => shards.map((s, i) => ({ serverId: s.serverId, db: dbs[i]! }));

    beforeAll(async () => {
      h = harnessHost(ctx.dialect);
      shards = await createShards(h.host, 'snowkey_e', [1, 2, 3]);
      dbs = shards.map((s) => openDatabase(s.ref));
      for (const [i, s] of SERVERS.entries()) await fill(dbs[i]!, s.serverId, s.players, s.guild);
      const run = await withTarget('reference', (target) =>
        mergeShards({ sources: sources(), target, batchSize: BATCH }),
      );
      reference = { dump: await dumpOf(h.oracle('snowkey_e_reference')), run };
    });
    afterAll(async () => {
      await Promise.all((dbs ?? []).map((d) => d.destroy()));
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
      const renames = await merged.query<{ source_server: number; old_name: string; new_name: string }>(
        `SELECT source_server, old_name, new_name FROM ${MERGE_TABLES.renames} ORDER BY table_name, entity_id`,
      );
      expect(renames.map((r) => [Number(r.source_server), r.old_name, r.new_name])).toEqual([
        [2, 'Dawnguard', 'Dawnguard.S2'],
        [3, 'Dawnguard', 'Dawnguard.S3'],
        [2, 'Aria', 'Aria.S2.2'],
        [2, LONG, `${cut}.S2`],
        [3, 'Aria', 'Aria.S3'],
        [3, LONG, `${cut}.S3`],
      ]);
      expect(reference.run.totals).toEqual({ rowsCopied: 11, collisions: 0, renames: 6 });
      const target = openDatabase({ dialect: ctx.dialect, url: merged.url });
      try {
        const v = await verifyMerge({ sources: sources(), target, layout: layouts.gameServer });
        expect(v.problems).toEqual([]);
      } finally {
        await target.destroy();
      }
    });

    test('GIVEN the same merge stopped after every one of its batches in turn WHEN resumed THEN each ends identical to the uninterrupted merge, renames included', async () => {
      expect(reference.run.batches).toBeGreaterThan(10);
      await withTarget('resumed', async (target) => {
        for (let k = 1; k < reference.run.batches; k++) {
          await reset(target);
          const first = await mergeShards({
            sources: sources(),
            target,
            batchSize: BATCH,
            stopAfterBatches: k,
          });
          expect(first.complete, `stopped after ${k}`).toBe(false);
          const rest = await mergeShards({ sources: sources(), target, batchSize: BATCH });
          expect(rest.totals, `resumed after ${k}`).toEqual(reference.run.totals);
          expect(await dumpOf(h.oracle('snowkey_e_resumed')), `resumed after ${k}`).toBe(reference.dump);
        }
      });
    });

    test('GIVEN a finished merge WHEN run twice more THEN nothing is copied and the totals stay those of the first run', async () => {
      await withTarget('rerun', async (target) => {
        await mergeShards({ sources: sources(), target, batchSize: BATCH });
        for (const _ of [1, 2]) {
          const again = await mergeShards({ sources: sources(), target, batchSize: BATCH });
          expect(again).toMatchObject({ complete: true, batches: 0, rowsCopied: 0, renames: 0 });
          expect(again.totals).toEqual(reference.run.totals);
        }
      });
      expect(await dumpOf(h.oracle('snowkey_e_rerun'))).toBe(reference.dump);
    });

    test.each([
      ['the servers in another order', [2, 1, 3]],
      ['a server left out', [1, 2]],
    ])(
      'GIVEN a merge stopped half way WHEN resumed with %s THEN it is refused, naming sources, and nothing changes',
      async (_, order) => {
        await withTarget(`order${order.length}${order[0]}`, async (target) => {
          await mergeShards({ sources: sources(), target, batchSize: BATCH, stopAfterBatches: 5 });
          const oracle = h.oracle(`snowkey_e_order${order.length}${order[0]}`);
          const before = await dumpOf(oracle);
          const bySource = new Map(sources().map((s) => [s.serverId, s]));
          const other = order.map((id) => bySource.get(id)!);
          await expect(mergeShards({ sources: other, target, batchSize: BATCH })).rejects.toThrow(
            expect.objectContaining({ argument: 'sources' }),
          );
          expect(await dumpOf(oracle)).toBe(before);
          const rest = await mergeShards({ sources: sources(), target, batchSize: BATCH });
          expect(rest.totals).toEqual(reference.run.totals);
          expect(await dumpOf(oracle)).toBe(reference.dump);
        });
      },
    );

    test('GIVEN two AUTO_INCREMENT shards with one key holding identical values THEN that is a key collision: counted once, left out, the figures agree', async () => {
      const twins = await createShards(h.host, 'snowkey_t', [1, 2], 'autoincrement');
      const [s1, s2] = twins.map((s) => openDatabase(s.ref));
      const target = openDatabase(await createGameDatabase(h.host, 'snowkey_t', 'merged', 'autoincrement'));
      try {
        const same = { id: 1, name: 'Aria', home_server: 1, level: 1, created_at: 1 };
        await s1!('players').insert(same);
        await s2!('players').insert([same, { ...same, id: 2, name: 'Bram' }]);
        const twinSources = [
          { serverId: 1, db: s1! },
          { serverId: 2, db: s2! },
        ];
        const run = await mergeShards({ sources: twinSources, target });
        const v = await verifyMerge({ sources: twinSources, target });
        const merged = h.oracle('snowkey_t_merged');
        const [count] = await merged.query<{ n: string | number }>('SELECT COUNT(*) AS n FROM players');
        const recorded = await merged.query<{ source_server: number; entity_id: string }>(
          `SELECT source_server, entity_id FROM ${MERGE_TABLES.collisions}`,
        );
        expect(Number(count!.n)).toBe(2);
        expect(recorded.map((r) => [Number(r.source_server), String(r.entity_id)])).toEqual([[2, '1']]);
        expect(run.totals.collisions).toBe(1);
        const players = v.tables.find((t) => t.table === 'players')!;
        expect(players).toMatchObject({ sourceTotal: 3, merged: 2, lost: 1, sharedKeys: 1 });
        expect(v.ok).toBe(false);
      } finally {
        await Promise.all([s1!.destroy(), s2!.destroy(), target.destroy()]);
      }
    });
  },
  { label: 'edge' },
);
