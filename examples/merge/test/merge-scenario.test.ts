import { type MergeInputs, openDatabase as openMergeDatabase, runMerge } from '@snowkey/merge';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createGameDatabase,
  GAME_POLICIES,
  type MergeScenarioResult,
  plainSnowflakePlayer,
  runMergeScenario,
  type Shard,
} from '../src/index.js';
import { harnessHost } from './support/harness-host.js';
import {
  countsOf,
  danglingOf,
  dumpOf,
  duplicatesOf,
  foreignBornOf,
  GAME_TABLE_NAMES,
  idsOf,
  NO_DANGLING,
} from './support/oracle.js';

const SIZE = { playersPerShard: 30, writers: 3, batchSize: 20 };

describeEachDialect(
  'merge of snowflake-keyed shards',
  (ctx) => {
    let h: ReturnType<typeof harnessHost>;
    let result: MergeScenarioResult;
    let reference: string;

    beforeAll(async () => {
      h = harnessHost(ctx.dialect);
      result = await runMergeScenario({
        host: h.host,
        prefix: 'snowkey_m',
        players: plainSnowflakePlayer,
        ...SIZE,
      });
      reference = await dumpOf(h.oracle('snowkey_m_merged'));
    });
    afterAll(async () => {
      await h?.dropAll();
    });

    /** Merges the scenario's shards into a fresh target with `run`, returns the target's oracle. */
    async function mergeInto(name: string, run: (inputs: MergeInputs) => Promise<void>) {
      const ref = await createGameDatabase(h.host, 'snowkey_m', name);
      const target = await openMergeDatabase(ref.url);
      const sources = await Promise.all(
        result.shards.map(async (s: Shard) => ({ label: s.label, db: await openMergeDatabase(s.ref.url) })),
      );
      try {
        await run({ sources, target, onConflict: GAME_POLICIES });
      } finally {
        await Promise.all([target.close(), ...sources.map((s) => s.db.close())]);
      }
      return h.oracle(`snowkey_m_${name}`);
    }

    test('GIVEN two played shards WHEN merged THEN every table holds the sum of the shards, by SQL', async () => {
      const s1 = await countsOf(h.oracle('snowkey_m_s1'));
      const s2 = await countsOf(h.oracle('snowkey_m_s2'));
      const merged = await countsOf(h.oracle('snowkey_m_merged'));
      for (const t of GAME_TABLE_NAMES) expect(merged[t], t).toBe(s1[t]! + s2[t]!);
      expect(s1.players).toBe(30);
      expect(s1.mail).toBeGreaterThan(0);
      expect(s1.guild_members).toBeGreaterThan(0);
    });

    test('GIVEN the merged database THEN its ids are exactly the union of the shard ids, no key on two shards', async () => {
      for (const t of GAME_TABLE_NAMES) {
        const a = await idsOf(h.oracle('snowkey_m_s1'), t);
        const b = await idsOf(h.oracle('snowkey_m_s2'), t);
        const merged = await idsOf(h.oracle('snowkey_m_merged'), t);
        expect(
          a.filter((id) => b.includes(id)),
          t,
        ).toEqual([]);
        expect([...merged].sort(), t).toEqual([...a, ...b].sort());
      }
    });

    test('GIVEN the merged database THEN every foreign key resolves and no name or id is held twice', async () => {
      const merged = h.oracle('snowkey_m_merged');
      expect(await danglingOf(merged)).toEqual(NO_DANGLING);
      expect(await duplicatesOf(merged)).toBe(0);
    });

    test('GIVEN the merged database THEN every id decodes to the server whose shard it came from', async () => {
      for (const t of GAME_TABLE_NAMES) {
        expect(await foreignBornOf(h.oracle('snowkey_m_s1'), t, 1), t).toBe(0);
        expect(await foreignBornOf(h.oracle('snowkey_m_s2'), t, 2), t).toBe(0);
      }
      const players = await h
        .oracle('snowkey_m_merged')
        .query<{ id: string; home_server: number }>('SELECT id, home_server FROM players');
      const { decode, layouts } = await import('@snowkey/core');
      const wrong = players.filter(
        (p) => decode(BigInt(p.id), { layout: layouts.gameServer }).serverId !== Number(p.home_server),
      );
      expect(wrong).toEqual([]);
    });

    test('GIVEN names taken on both servers THEN the second is renamed with a .S2 suffix and recorded', async () => {
      const merged = h.oracle('snowkey_m_merged');
      const renames = (
        await merged.query<{ table_name: string; row_key: string; old_value: string; new_value: string }>(
          'SELECT table_name, row_key, old_value, new_value FROM snowkey_merge_renames',
        )
      ).map((r) => ({
        table_name: r.table_name,
        entity_id: r.row_key,
        old_name: r.old_value,
        new_name: r.new_value,
      }));
      const s1Names = new Set(
        (await h.oracle('snowkey_m_s1').query<{ name: string }>('SELECT name FROM players')).map(
          (r) => r.name,
        ),
      );
      const s2 = await h
        .oracle('snowkey_m_s2')
        .query<{ id: string; name: string }>('SELECT id, name FROM players');
      const clashing = s2.filter((p) => s1Names.has(p.name));
      const playerRenames = renames.filter((r) => r.table_name === 'players');
      expect(playerRenames.map((r) => String(r.entity_id)).sort()).toEqual(
        clashing.map((p) => String(p.id)).sort(),
      );
      for (const r of renames) {
        expect(r.new_name).toBe(`${r.old_name}.S2`);
        const [row] = await merged.query<{ name: string }>(`SELECT name FROM ${r.table_name} WHERE id = ?`, [
          BigInt(r.entity_id),
        ]);
        expect(row?.name).toBe(r.new_name);
      }
      expect(result.verification.renames.length).toBe(renames.length);
    });

    test("GIVEN the example's own verifier THEN it agrees: ok, with no problems", () => {
      expect(result.verification.problems).toEqual([]);
      expect(result.verification.ok).toBe(true);
      expect(result.merge.totals.collisions).toBe(0);
      expect(result.merge.totals.copied).toBe(
        result.verification.tables.reduce((a, t) => a + t.expectedRows, 0),
      );
    });

    test('GIVEN a finished merge WHEN run again THEN nothing changes', async () => {
      const again = await mergeInto('again', async (inputs) => {
        await runMerge({ ...inputs, batchSize: 20 });
        const second = await runMerge({ ...inputs, batchSize: 20 });
        expect(second).toMatchObject({ complete: true, batches: 0, run: { copied: 0, renames: 0 } });
        expect(second.totals).toEqual(result.merge.totals);
      });
      expect(await dumpOf(again)).toBe(reference);
    });

    test.each([1, 4, 9])(
      'GIVEN a merge stopped after batch %i WHEN run again THEN the result is identical to an uninterrupted merge',
      async (k) => {
        const resumed = await mergeInto(`stop${k}`, async (inputs) => {
          const first = await runMerge({ ...inputs, batchSize: 20, stopAfterBatches: k });
          expect(first.complete).toBe(false);
          expect(first.batches).toBe(k);
          const rest = await runMerge({ ...inputs, batchSize: 20 });
          expect(rest.complete).toBe(true);
          expect(rest.totals).toEqual(result.merge.totals);
        });
        expect(await dumpOf(resumed)).toBe(reference);
      },
    );

    test('GIVEN a crash inside the second chunk of the copy after its inserts WHEN run again THEN nothing of it survives and the result is identical', async () => {
      const resumed = await mergeInto('crash', async (inputs) => {
        let copies = 0;
        const crash = runMerge({
          ...inputs,
          batchSize: 20,
          beforeCommit: ({ phase }) => {
            if (phase === 'copy' && ++copies === 2) throw new Error('power cut');
          },
        });
        await expect(crash).rejects.toThrow('power cut');
        const db = h.oracle('snowkey_m_crash');
        const [saved] = await db.query<{ n: string | number }>(
          "SELECT SUM(rows_copied) AS n FROM snowkey_merge_progress WHERE phase = 'copy'",
        );
        const present = Object.values(await countsOf(db)).reduce((a, b) => a + b, 0);
        expect(present).toBeGreaterThan(0);
        expect(Number(saved!.n)).toBe(present);
        await runMerge({ ...inputs, batchSize: 20 });
      });
      expect(await dumpOf(resumed)).toBe(reference);
    });
  },
  { label: 'merge' },
);
