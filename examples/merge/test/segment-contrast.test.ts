import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runSegmentContrast, type SegmentPhase, segmentSlice } from '../src/index.js';
import { harnessHost } from './support/harness-host.js';
import {
  countsOf,
  danglingOf,
  GAME_TABLE_NAMES,
  idsOf,
  NO_DANGLING,
  type SqlReader,
} from './support/oracle.js';

const PLAYERS_PER_SHARD = 20;
const PREFIX = 'snowkey_sgc';

describeEachDialect(
  'the segment-allocator contrast',
  (ctx) => {
    let h: ReturnType<typeof harnessHost>;
    let own: SegmentPhase;
    let slice: SegmentPhase;
    let shared: SegmentPhase;

    /** Ids both shards of a phase hold, table by table, by SQL. */
    const sharedIds = async (phase: string) => {
      const out: Record<string, number> = {};
      for (const t of GAME_TABLE_NAMES) {
        const s1 = new Set(await idsOf(h.oracle(`${PREFIX}_sg_${phase}_s1`), t));
        out[t] = (await idsOf(h.oracle(`${PREFIX}_sg_${phase}_s2`), t)).filter((id) => s1.has(id)).length;
      }
      return out;
    };
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    const shardCounts = (phase: string) =>
      Promise.all([1, 2].map((s) => countsOf(h.oracle(`${PREFIX}_sg_${phase}_s${s}`))));
    /** The highest id of any game table, by SQL. */
    const maxId = async (db: SqlReader) => {
      let max = 0n;
      for (const t of GAME_TABLE_NAMES)
        for (const id of await idsOf(db, t)) if (BigInt(id) > max) max = BigInt(id);
      return max;
    };
    const counterOf = async (db: SqlReader) => {
      const rows = await db.query<{ tag: string; max_id: unknown }>(
        'SELECT tag, max_id FROM snowkey_segments',
      );
      return rows.map((r) => ({ tag: r.tag, maxId: BigInt(String(r.max_id)) }));
    };

    beforeAll(async () => {
      h = harnessHost(ctx.dialect);
      [own, slice, shared] = await runSegmentContrast({
        host: h.host,
        prefix: PREFIX,
        playersPerShard: PLAYERS_PER_SHARD,
        writers: 2,
        batchSize: 25,
      });
    });
    afterAll(async () => {
      await h?.dropAll();
    });

    test('GIVEN each server allocating from a counter in its own database THEN each counter counted from 1, by SQL', async () => {
      for (const s of [1, 2]) {
        const db = h.oracle(`${PREFIX}_sg_own_s${s}`);
        const counters = await counterOf(db);
        expect(counters.map((c) => c.tag)).toEqual(['game']);
        const [counter] = counters;
        expect(counter!.maxId).toBeGreaterThanOrEqual(await maxId(db));
        const [row] = await db.query<{ lo: unknown }>('SELECT MIN(id) AS lo FROM players');
        expect(String(row!.lo)).toBe('1');
      }
    });

    test('GIVEN own counters THEN the shards share keys, and the merge reports exactly the overlap SQL finds, table by table', async () => {
      const overlap = await sharedIds('own');
      expect(overlap.players).toBeGreaterThan(0);
      expect(own.merge.totals.collisions).toBe(sum(overlap));
      const [s1, s2] = await shardCounts('own');
      const merged = await countsOf(h.oracle(`${PREFIX}_sg_own_merged`));
      for (const t of GAME_TABLE_NAMES) expect(merged[t], t).toBe(s1![t]! + s2![t]! - overlap[t]!);
      const recorded = await h
        .oracle(`${PREFIX}_sg_own_merged`)
        .query<{ table_name: string; n: string | number }>(
          'SELECT table_name, COUNT(*) AS n FROM snowkey_merge_collisions GROUP BY table_name',
        );
      expect(Object.fromEntries(recorded.map((r) => [r.table_name, Number(r.n)]))).toEqual(
        Object.fromEntries(Object.entries(overlap).filter(([, n]) => n > 0)),
      );
    });

    test('GIVEN own counters THEN the verification fails on the key collisions', () => {
      expect(own.verification.ok).toBe(false);
      expect(own.verification.problems).toContainEqual(
        `players: ${own.verification.tables.find((t) => t.table === 'players')!.leftOut} source rows were left out, their key held by another row (key collisions)`,
      );
      expect(own.verification.tables.find((t) => t.table === 'players')!.leftOut).toBeGreaterThan(0);
    });

    test('GIVEN each counter given its server slice (shardIdRange) THEN every id lies in its slice and no key is shared, by SQL', async () => {
      for (const s of [1, 2]) {
        const { minId, maxId: top } = segmentSlice(s);
        for (const t of GAME_TABLE_NAMES) {
          const ids = (await idsOf(h.oracle(`${PREFIX}_sg_slice_s${s}`), t)).map(BigInt);
          expect(ids.length, t).toBeGreaterThan(0);
          expect(
            ids.filter((id) => id < minId || id > top),
            t,
          ).toEqual([]);
        }
      }
      expect(sum(await sharedIds('slice'))).toBe(0);
    });

    for (const phase of ['slice', 'shared'] as const) {
      test(`GIVEN the ${phase} merge THEN it holds every shard row (COUNT(*) = sum of the shards), 0 collisions, every reference resolving`, async () => {
        const result = phase === 'slice' ? slice : shared;
        const [s1, s2] = await shardCounts(phase);
        const merged = h.oracle(`${PREFIX}_sg_${phase}_merged`);
        const counts = await countsOf(merged);
        for (const t of GAME_TABLE_NAMES) expect(counts[t], t).toBe(s1![t]! + s2![t]!);
        expect(counts.players).toBe(2 * PLAYERS_PER_SHARD);
        expect(await danglingOf(merged)).toEqual(NO_DANGLING);
        expect(result.merge.totals.collisions).toBe(0);
        expect(result.verification.problems).toEqual([]);
      });
    }

    test('GIVEN one counter both servers share THEN no key is shared, both drew from it, and it stands above every id issued, by SQL', async () => {
      expect(sum(await sharedIds('shared'))).toBe(0);
      const top = [
        await maxId(h.oracle(`${PREFIX}_sg_shared_s1`)),
        await maxId(h.oracle(`${PREFIX}_sg_shared_s2`)),
      ];
      const [counter] = await counterOf(h.oracle(`${PREFIX}_sg_shared_ids`));
      expect(counter!.tag).toBe('game');
      for (const m of top) expect(counter!.maxId).toBeGreaterThanOrEqual(m);
    });
  },
  { label: 'segment contrast' },
);
