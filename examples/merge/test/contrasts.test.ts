import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type AutoIncrementContrastResult,
  runAutoIncrementContrast,
  runTicketServerContrast,
  type TicketPhase,
} from '../src/index.js';
import { harnessHost } from './support/harness-host.js';
import { countsOf, danglingOf, GAME_TABLE_NAMES, idsOf, NO_DANGLING } from './support/oracle.js';

const PLAYERS_PER_SHARD = 20;

describeEachDialect(
  'the AUTO_INCREMENT and ticket-server contrasts',
  (ctx) => {
    let h: ReturnType<typeof harnessHost>;
    let ai: AutoIncrementContrastResult;
    let tickets: TicketPhase[];

    beforeAll(async () => {
      h = harnessHost(ctx.dialect);
      const size = {
        host: h.host,
        prefix: 'snowkey_c',
        playersPerShard: PLAYERS_PER_SHARD,
        writers: 2,
        batchSize: 25,
      };
      ai = await runAutoIncrementContrast(size);
      tickets = await runTicketServerContrast(size);
    });
    afterAll(async () => {
      await h?.dropAll();
    });

    test('GIVEN two AUTO_INCREMENT shards THEN the same keys exist on both, in every table, by SQL', async () => {
      for (const t of GAME_TABLE_NAMES) {
        const s1 = new Set(await idsOf(h.oracle('snowkey_c_ai_s1'), t));
        const shared = (await idsOf(h.oracle('snowkey_c_ai_s2'), t)).filter((id) => s1.has(id));
        expect(shared.length, t).toBeGreaterThan(0);
      }
    });

    test('GIVEN the AUTO_INCREMENT merge THEN it really collides: rows are missing from the merged database', async () => {
      const s1 = await countsOf(h.oracle('snowkey_c_ai_s1'));
      const s2 = await countsOf(h.oracle('snowkey_c_ai_s2'));
      const merged = await countsOf(h.oracle('snowkey_c_ai_merged'));
      expect(merged.players).toBeLessThan(s1.players! + s2.players!);
      expect(merged.items).toBeLessThan(s1.items! + s2.items!);
      expect(ai.merge.totals.collisions).toBeGreaterThan(0);
      expect(ai.verification.ok).toBe(false);
      // Foreign keys still resolve, to another server's rows: the corruption no constraint catches.
      expect(await danglingOf(h.oracle('snowkey_c_ai_merged'))).toEqual(NO_DANGLING);
    });

    test('GIVEN the AUTO_INCREMENT merge THEN the collisions it reports are exactly the rows missing by SQL, table by table, and the verifier agrees', async () => {
      const s1 = await countsOf(h.oracle('snowkey_c_ai_s1'));
      const s2 = await countsOf(h.oracle('snowkey_c_ai_s2'));
      const merged = await countsOf(h.oracle('snowkey_c_ai_merged'));
      const missing = Object.fromEntries(GAME_TABLE_NAMES.map((t) => [t, s1[t]! + s2[t]! - merged[t]!]));
      const recorded = await h
        .oracle('snowkey_c_ai_merged')
        .query<{ table_name: string; n: string | number }>(
          'SELECT table_name, COUNT(*) AS n FROM snowkey_merge_collisions GROUP BY table_name',
        );
      expect(Object.fromEntries(recorded.map((r) => [r.table_name, Number(r.n)]))).toEqual(missing);
      const total = Object.values(missing).reduce((a, b) => a + b, 0);
      expect(ai.merge.totals.collisions).toBe(total);
      for (const t of ai.verification.tables) {
        expect(t.leftOut, t.table).toBe(missing[t.table]);
        expect(t.missing + t.different, t.table).toBe(0);
      }
    });

    test('GIVEN the same AUTO_INCREMENT shards re-keyed by @snowkey/merge THEN their merge holds every row, by SQL, with every reference resolving', async () => {
      expect(ai.rekeyed.problems).toEqual([]);
      const s1 = await countsOf(h.oracle('snowkey_c_ai_s1'));
      const s2 = await countsOf(h.oracle('snowkey_c_ai_s2'));
      const merged = h.oracle('snowkey_c_ai_rk_merged');
      const counts = await countsOf(merged);
      for (const t of GAME_TABLE_NAMES) expect(counts[t], t).toBe(s1[t]! + s2[t]!);
      expect(counts.players).toBe(2 * PLAYERS_PER_SHARD);
      expect(await danglingOf(merged)).toEqual(NO_DANGLING);
      const players = await merged.query<{ id: string; home_server: number }>(
        'SELECT id, home_server FROM players',
      );
      const { decode, layouts } = await import('@snowkey/core');
      expect(
        players.filter(
          (p) => decode(BigInt(p.id), { layout: layouts.gameServer }).serverId !== Number(p.home_server),
        ),
      ).toEqual([]);
    });

    test('GIVEN a plain copy of a second-server player THEN the database refuses the duplicate key', () => {
      expect(ai.plainCopyError).toMatch(/duplicate|unique/i);
    });

    test('GIVEN two ticket servers with step 2 THEN their keys are odd and even and the merge is clean', async () => {
      const [fixed] = tickets;
      expect(fixed!.merge.totals.collisions).toBe(0);
      expect(fixed!.verification.ok).toBe(true);
      const merged = h.oracle('snowkey_c_tk_merged2');
      const counts = await countsOf(merged);
      // The verifier's totals come from the code under test; the player count does not.
      expect(counts.players).toBe(2 * PLAYERS_PER_SHARD);
      expect(counts).toEqual(
        Object.fromEntries(fixed!.verification.tables.map((t) => [t.table, t.expectedRows])),
      );
      const players = await merged.query<{ id: string; home_server: number }>(
        'SELECT id, home_server FROM players',
      );
      const offBy = players.filter((p) => Number(BigInt(p.id) % 2n) !== Number(p.home_server) % 2);
      expect(offBy).toEqual([]);
    });

    test('GIVEN a third ticket server (step 3) THEN its keys are multiples of 3 that servers 1 and 2 already used', async () => {
      const [, grown] = tickets;
      const s3 = await idsOf(h.oracle('snowkey_c_tk_s3'), 'players');
      expect(s3.every((id) => BigInt(id) % 3n === 0n)).toBe(true);
      const older = new Set([
        ...(await idsOf(h.oracle('snowkey_c_tk_s1'), 'players')),
        ...(await idsOf(h.oracle('snowkey_c_tk_s2'), 'players')),
      ]);
      expect(s3.filter((id) => older.has(id)).length).toBeGreaterThan(0);
      expect(grown!.merge.totals.collisions).toBeGreaterThan(0);
      expect(grown!.verification.ok).toBe(false);
    });
  },
  { label: 'contrast' },
);
