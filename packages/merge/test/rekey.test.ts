import { decode, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  MergeConflictError,
  MergeSchemaError,
  type RekeyOptions,
  runMerge,
  runRekey,
  verifyMerge,
  verifyRekey,
} from '../src/index.js';
import { danglingOf, dumpOf, relationsOf, Shards, type TestShard } from './support/shards.js';

const ACCOUNTS = (prefix: string): [string, string][] =>
  Array.from({ length: 12 }, (_, i) => [`${prefix}${i}@x.io`, `${prefix}${i}`]);
/** The rekey's clock, injected: its first timestamp is fixed by it, so two runs assign the same ids. */
const NOW = Date.UTC(2026, 2, 1);
const MAP = ['SELECT table_name, old_id, new_id FROM snowkey_rekey_map ORDER BY table_name, old_id'];

describeEachDialect(
  'rekey of AUTO_INCREMENT shards',
  (ctx) => {
    const shards = new Shards(ctx.dialect);
    let s1: TestShard;
    let s2: TestShard;
    let reference: { shard: TestShard; dump: string };
    const options = (source: TestShard, target: TestShard, serverId = 1): RekeyOptions => ({
      source: source.db,
      target: target.db,
      layout: layouts.gameServer,
      node: { serverId },
      exclude: ['audit_log'],
      clock: () => NOW,
    });

    beforeAll(async () => {
      s1 = await shards.create('r_s1', 'autoincrement', { base: 0, accounts: ACCOUNTS('a') });
      s2 = await shards.create('r_s2', 'autoincrement', { base: 0, accounts: ACCOUNTS('b') });
      const shard = await shards.create('r_ref');
      await runRekey({ ...options(s1, shard), batchSize: 4 });
      reference = { shard, dump: await dumpOf(shard.oracle, MAP) };
    });
    afterAll(() => shards.dropAll());

    test('GIVEN an AUTO_INCREMENT shard WHEN re-keyed THEN every id is a snowkey id of server 1 and every relation holds, by SQL', async () => {
      const db = reference.shard.oracle;
      for (const t of ['accounts', 'guilds', 'guild_officers', 'trades', 'mail']) {
        const ids = await db.query<{ id: string }>(`SELECT id FROM ${t}`);
        expect(ids.length, t).toBeGreaterThan(0);
        const off = ids.filter((r) => decode(BigInt(r.id), { layout: layouts.gameServer }).serverId !== 1);
        expect(off, t).toEqual([]);
        expect(
          ids.filter((r) => BigInt(r.id) <= 2n ** 53n),
          t,
        ).toEqual([]);
      }
      expect(await relationsOf(db)).toBe(await relationsOf(s1.oracle));
      expect(await danglingOf(db)).toBe(0);
      const [map] = await db.query<{ n: unknown }>(
        "SELECT COUNT(*) AS n FROM snowkey_rekey_map WHERE table_name = 'accounts'",
      );
      expect(Number(map!.n)).toBe(12);
      if (ctx.dialect === 'postgres') {
        // The map was analyzed once written: the planner counts its rows instead of guessing.
        const [stats] = await db.query<{ planned: unknown; n: unknown }>(
          "SELECT c.reltuples AS planned, (SELECT COUNT(*) FROM snowkey_rekey_map) AS n FROM pg_class c WHERE c.relname = 'snowkey_rekey_map'",
        );
        expect(Number(stats!.planned)).toBe(Number(stats!.n));
      }
      // The mapping translates an old id: account 3's new id holds account 3's handle.
      const [a3] = await db.query<{ handle: string }>(
        "SELECT a.handle FROM accounts a JOIN snowkey_rekey_map m ON m.new_id = a.id WHERE m.table_name = 'accounts' AND m.old_id = 3",
      );
      const [old3] = await s1.oracle.query<{ handle: string }>('SELECT handle FROM accounts WHERE id = 3');
      expect(a3!.handle).toBe(old3!.handle);
      const v = await verifyRekey(options(s1, reference.shard));
      expect(v.problems).toEqual([]);
    });

    test.each([1, 5, 13])(
      'GIVEN a rekey stopped after batch %i WHEN resumed THEN the result equals the uninterrupted rekey, ids included',
      async (k) => {
        const target = await shards.create(`r_stop${k}`);
        const first = await runRekey({ ...options(s1, target), batchSize: 4, stopAfterBatches: k });
        expect(first.complete).toBe(false);
        const rest = await runRekey({ ...options(s1, target), batchSize: 7, clock: () => NOW + 60_000 });
        expect(rest.complete).toBe(true);
        expect(await dumpOf(target.oracle, MAP)).toBe(reference.dump);
      },
    );

    test('GIVEN a rekey begun WHEN resumed with another node id THEN it is refused', async () => {
      const target = await shards.create('r_node');
      await runRekey({ ...options(s1, target), batchSize: 4, stopAfterBatches: 2 });
      await expect(runRekey(options(s1, target, 2))).rejects.toThrow(/other inputs/);
    });

    test('GIVEN a stopped rekey whose staged rows were renumbered WHEN resumed THEN it is refused before any copy', async () => {
      const target = await shards.create('r_gap');
      await runRekey({ ...options(s1, target), batchSize: 4, stopAfterBatches: 2 });
      // accounts is staged first: its stage is snowkey_rekey_stage_<its place in the order>.
      const stages = await target.oracle.query<{ name: string }>(
        ctx.dialect === 'sqlite'
          ? "SELECT name FROM sqlite_master WHERE name LIKE 'snowkey_rekey_stage_%'"
          : ctx.dialect === 'postgres'
            ? "SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'snowkey_rekey_stage_%'"
            : "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'snowkey_rekey_stage_%'",
      );
      expect(stages.length).toBeGreaterThan(0);
      for (const { name } of stages)
        await target.oracle.query(`UPDATE ${name} SET snowkey_seq = snowkey_seq + 1000`);
      await expect(runRekey(options(s1, target))).rejects.toThrow(/numbered 1001\.\.\d+ for \d+ rows/);
      const [copied] = await target.oracle.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM accounts');
      expect(Number(copied!.n)).toBe(0);
    });

    test('GIVEN a target that already holds rows THEN the rekey is refused before writing', async () => {
      const target = await shards.create('r_full', 'given', { base: 5000, accounts: ACCOUNTS('c') });
      await expect(runRekey(options(s1, target))).rejects.toThrow(MergeSchemaError);
    });

    test('GIVEN two AUTO_INCREMENT shards THEN a plain merge stops on the first key collision, and after rekey the merge verifies', async () => {
      const plain = await shards.create('r_plain');
      const sources = [
        { label: 'S1', db: s1.db },
        { label: 'S2', db: s2.db },
      ];
      const merge = runMerge({
        sources,
        target: plain.db,
        exclude: ['audit_log'],
        onConflict: { 'guilds.name': 'rename' },
      });
      await expect(merge).rejects.toThrow(MergeConflictError);
      await expect(merge).rejects.toThrow(/accounts\.PRIMARY KEY = 1 from S2/);

      const r2 = await shards.create('r_s2_snowkey');
      await runRekey(options(s2, r2, 2));
      const merged = await shards.create('r_merged');
      const inputs = {
        sources: [
          { label: 'S1', db: reference.shard.db },
          { label: 'S2', db: r2.db },
        ],
        target: merged.db,
        onConflict: { 'guilds.name': 'rename' } as const,
        exclude: ['audit_log'],
      };
      const run = await runMerge(inputs);
      expect(run.totals.collisions).toBe(0);
      expect((await verifyMerge(inputs)).problems).toEqual([]);
      expect(await danglingOf(merged.oracle)).toBe(0);
      const [n] = await merged.oracle.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM accounts');
      expect(Number(n!.n)).toBe(24);
    });
  },
  { label: 'rekey' },
);
