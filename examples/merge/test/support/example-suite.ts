import { decode, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type MergeScenarioResult, runMergeScenario, type ShardPlayer } from '../../src/index.js';
import { harnessHost } from './harness-host.js';
import {
  countsOf,
  danglingOf,
  duplicatesOf,
  foreignBornOf,
  GAME_TABLE_NAMES,
  idsOf,
  NO_DANGLING,
} from './oracle.js';

/**
 * The checks every adapter example passes on every dialect: two shards played through the
 * adapter (small sizes), merged, and the result read back with the test's own SQL.
 */
export function exampleSuite(player: ShardPlayer, options: { playersPerShard?: number } = {}): void {
  const prefix = `snowkey_${player.name}`;
  describeEachDialect(
    `the ${player.name} example`,
    (ctx) => {
      let h: ReturnType<typeof harnessHost>;
      let result: MergeScenarioResult;

      beforeAll(async () => {
        h = harnessHost(ctx.dialect);
        result = await runMergeScenario({
          host: h.host,
          prefix,
          players: player,
          playersPerShard: options.playersPerShard ?? 25,
          writers: 3,
          batchSize: 20,
        });
      });
      afterAll(async () => {
        await h?.dropAll();
      });

      test(`GIVEN two servers played through ${player.name} THEN each shard holds every kind of row, with ids from its own server`, async () => {
        for (const [i, serverId] of [1, 2].entries()) {
          const shard = h.oracle(`${prefix}_s${serverId}`);
          const counts = await countsOf(shard);
          expect(counts.players).toBe(options.playersPerShard ?? 25);
          for (const t of GAME_TABLE_NAMES) expect(counts[t], t).toBeGreaterThan(0);
          expect(counts).toEqual(result.plays[i]!.rows);
          for (const t of GAME_TABLE_NAMES) expect(await foreignBornOf(shard, t, serverId), t).toBe(0);
          expect(await danglingOf(shard)).toEqual(NO_DANGLING);
        }
      });

      test('GIVEN ids far above 2^53 THEN they were stored exactly: each player id decodes to its home server', async () => {
        const players = await h
          .oracle(`${prefix}_merged`)
          .query<{ id: string; home_server: number }>('SELECT id, home_server FROM players');
        // Both shards' players, so the checks below cannot pass on an empty table.
        expect(players).toHaveLength(2 * (options.playersPerShard ?? 25));
        expect(players.filter((p) => BigInt(p.id) <= 2n ** 53n)).toEqual([]);
        const wrong = players.filter(
          (p) => decode(BigInt(p.id), { layout: layouts.gameServer }).serverId !== Number(p.home_server),
        );
        expect(wrong).toEqual([]);
      });

      test('GIVEN the merge THEN the merged database holds every shard row once, all references resolve, no duplicates', async () => {
        const s1 = h.oracle(`${prefix}_s1`);
        const s2 = h.oracle(`${prefix}_s2`);
        const merged = h.oracle(`${prefix}_merged`);
        for (const t of GAME_TABLE_NAMES) {
          const ids = [...(await idsOf(s1, t)), ...(await idsOf(s2, t))].sort();
          expect([...(await idsOf(merged, t))].sort(), t).toEqual(ids);
        }
        expect(await danglingOf(merged)).toEqual(NO_DANGLING);
        expect(await duplicatesOf(merged)).toBe(0);
        expect(result.verification.problems).toEqual([]);
      });
    },
    { label: player.name },
  );
}
