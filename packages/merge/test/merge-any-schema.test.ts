import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  MergeConflictError,
  type MergeInputs,
  MergeInputsChangedError,
  MergeSchemaError,
  planMerge,
  runMerge,
  verifyMerge,
} from '../src/index.js';
import { GUILD_TABLES } from './support/guild-schema.js';
import { danglingOf, dumpOf, Shards, type TestShard } from './support/shards.js';

/**
 * Accounts per server: emails and handles clash across servers (both renamed); guilds of one name
 * are one guild (skip: later servers' members join the first server's guild).
 */
const ACCOUNTS: [string, string][][] = [
  [
    ['ann@x.io', 'Aria'],
    ['bo@x.io', 'Bram'],
    ['cy@x.io', 'Cora'],
    ['di@x.io', 'Dax'],
    ['ed@x.io', 'Elin'],
    ['fi@x.io', 'Fenn'],
    ['gu@x.io', 'Gale'],
    ['ha@x.io', 'Hana'],
  ],
  [
    ['ann@x.io', 'Ann'],
    ['jo@x.io', 'Aria'],
    ['ki@x.io', 'Kai'],
    ['lu@x.io', 'Bram'],
    ['mo@x.io', 'Milo'],
    ['ny@x.io', 'Nyx'],
    ['ol@x.io', 'Orin'],
    ['pi@x.io', 'Pia'],
  ],
  [
    ['qu@x.io', 'Aria'],
    ['ra@x.io', 'Aria.S2'],
    ['bo@x.io', 'Bo'],
    ['su@x.io', 'Soren'],
    ['ty@x.io', 'Tova'],
    ['uu@x.io', 'Ulf'],
    ['vi@x.io', 'Vera'],
    ['wy@x.io', 'Wren'],
  ],
];
const POLICIES = { 'accounts.email': 'rename', 'accounts.handle': 'rename', 'guilds.name': 'skip' } as const;
const RECORDS = [
  'SELECT table_name, row_key, column_name, source_label, old_value, new_value FROM snowkey_merge_renames ORDER BY table_name, row_key',
  'SELECT table_name, source_position, row_key, target_key FROM snowkey_merge_skips ORDER BY table_name, source_position, row_key',
];

describeEachDialect(
  'merge of any schema: composite keys, self-references, a join table, two unique constraints',
  (ctx) => {
    const shards = new Shards(ctx.dialect);
    let sources: TestShard[];
    let reference: { shard: TestShard; dump: string };
    const inputs = (target: TestShard, more: Partial<MergeInputs> = {}): MergeInputs => ({
      sources: sources.map((s, i) => ({ label: `S${i + 1}`, db: s.db })),
      target: target.db,
      onConflict: POLICIES,
      exclude: ['audit_log'],
      ...more,
    });

    beforeAll(async () => {
      sources = [];
      for (const [i, accounts] of ACCOUNTS.entries()) {
        sources.push(await shards.create(`m_s${i + 1}`, 'given', { base: (i + 1) * 1000, accounts }));
      }
      const shard = await shards.create('m_ref');
      await runMerge({ ...inputs(shard), batchSize: 3 });
      reference = { shard, dump: await dumpOf(shard.oracle, RECORDS) };
    });
    afterAll(() => shards.dropAll());

    test('GIVEN the schema THEN the plan orders parents first, defers the nullable self-references, refuses the keyless table and counts the conflicts', async () => {
      const target = await shards.create('m_plan');
      const plan = await planMerge({ ...inputs(target), exclude: [] });
      expect(plan.problems).toContainEqual(expect.stringContaining('table audit_log has no primary key'));
      expect(plan.deferred).toEqual(['guild_officers.mentor_id', 'mail.reply_to']);
      const at = (t: string) => plan.order.indexOf(t);
      expect(at('accounts')).toBeLessThan(at('guilds'));
      expect(at('guilds')).toBeLessThan(at('guild_members'));
      expect(at('inventory')).toBeLessThan(at('trades'));
      const accounts = plan.tables.find((t) => t.table === 'accounts')!;
      expect(accounts.conflicts.map((c) => [c.constraint, c.policy, c.count])).toEqual([
        ['accounts.email', 'rename', 2],
        ['accounts.handle', 'rename', 4],
      ]);
      expect(accounts.rows).toEqual({ S1: 8, S2: 8, S3: 8 });
      const guilds = plan.tables.find((t) => t.table === 'guilds')!;
      expect(guilds.conflicts.map((c) => [c.constraint, c.policy, c.count])).toEqual([
        ['guilds.name', 'skip', 4],
      ]);
      const ok = await planMerge(inputs(target));
      expect(ok.problems).toEqual([]);
      expect(ok.ok).toBe(true);
    });

    test('GIVEN a table without a key THEN the run is refused naming it, and nothing is written', async () => {
      const target = await shards.create('m_keyless');
      const run = runMerge({ ...inputs(target), exclude: [] });
      await expect(run).rejects.toThrow(MergeSchemaError);
      await expect(run).rejects.toThrow(/audit_log has no primary key/);
      const [row] = await target.oracle.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM accounts');
      expect(Number(row!.n)).toBe(0);
    });

    test('GIVEN the merge THEN by SQL every row is there once, skipped guilds are stood in for, renamed values recorded, no reference dangles', async () => {
      const db = reference.shard.oracle;
      const count = async (t: string) =>
        Number((await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${t}`))[0]!.n);
      const sum = async (t: string) => {
        let n = 0;
        for (const s of sources)
          n += Number((await s.oracle.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${t}`))[0]!.n);
        return n;
      };
      // Guild0 and Guild1 exist on every server: S2's and S3's are skipped.
      expect(await count('guilds')).toBe((await sum('guilds')) - 4);
      for (const t of GUILD_TABLES.filter((t) => t !== 'guilds'))
        expect(await count(t), t).toBe(await sum(t));
      expect(await danglingOf(db)).toBe(0);
      const handles = await db.query<{ handle: string }>('SELECT handle FROM accounts ORDER BY handle');
      expect(handles.map((h) => h.handle)).toEqual(
        expect.arrayContaining(['Aria', 'Aria.S2', 'Aria.S2.S3', 'Aria.S3', 'Bram', 'Bram.S2']),
      );
      // S2's guild 2001 (Guild0) was skipped: its members and officers now belong to S1's 1001.
      const [member] = await db.query<{ guild_id: unknown }>(
        'SELECT guild_id FROM guild_members WHERE account_id = 2001',
      );
      expect(String(member!.guild_id)).toBe('1001');
      const [officer] = await db.query<{ guild_id: unknown }>(
        'SELECT guild_id FROM guild_officers WHERE id = 2001',
      );
      expect(String(officer!.guild_id)).toBe('1001');
      const emails = await db.query<{ new_value: string }>(
        "SELECT new_value FROM snowkey_merge_renames WHERE column_name = 'email' ORDER BY row_key",
      );
      expect(emails.map((r) => r.new_value)).toEqual(['ann@x.io.S2', 'bo@x.io.S3']);
      const renames = await db.query<{ old_value: string; new_value: string; source_label: string }>(
        "SELECT old_value, new_value, source_label FROM snowkey_merge_renames WHERE column_name = 'handle' ORDER BY row_key",
      );
      expect(renames.map((r) => [r.source_label, r.old_value, r.new_value])).toEqual([
        ['S2', 'Aria', 'Aria.S2'],
        ['S2', 'Bram', 'Bram.S2'],
        ['S3', 'Aria', 'Aria.S3'],
        ['S3', 'Aria.S2', 'Aria.S2.S3'],
      ]);
      const v = await verifyMerge(inputs(reference.shard));
      expect(v.problems).toEqual([]);
    });

    test.each([1, 7, 23])(
      'GIVEN a merge stopped after batch %i WHEN resumed THEN it ends identical to the uninterrupted one, and a rerun changes nothing',
      async (k) => {
        const target = await shards.create(`m_stop${k}`);
        const first = await runMerge({ ...inputs(target), batchSize: 3, stopAfterBatches: k });
        expect(first.complete).toBe(false);
        const rest = await runMerge({ ...inputs(target), batchSize: 5 });
        expect(rest.complete).toBe(true);
        expect(await dumpOf(target.oracle, RECORDS)).toBe(reference.dump);
        const again = await runMerge(inputs(target));
        expect(again).toMatchObject({ batches: 0, run: { copied: 0, renames: 0 } });
        expect(again.totals).toEqual(rest.totals);
        expect(await dumpOf(target.oracle, RECORDS)).toBe(reference.dump);
      },
    );

    test('GIVEN a merge begun WHEN resumed with the sources in another order THEN it is refused and nothing changes', async () => {
      const target = await shards.create('m_order');
      await runMerge({ ...inputs(target), batchSize: 3, stopAfterBatches: 4 });
      const before = await dumpOf(target.oracle);
      const swapped = inputs(target);
      const run = runMerge({ ...swapped, sources: [...swapped.sources].reverse() });
      await expect(run).rejects.toThrow(MergeInputsChangedError);
      expect(await dumpOf(target.oracle)).toBe(before);
    });

    test('GIVEN a merge that wrote rows WHEN resumed with another policy THEN it is refused, naming the reset', async () => {
      const target = await shards.create('m_policy');
      const first = await runMerge({ ...inputs(target), batchSize: 3, stopAfterBatches: 85 });
      expect(first.complete).toBe(false);
      expect(first.totals.copied).toBeGreaterThan(0);
      const before = await dumpOf(target.oracle);
      const run = runMerge({ ...inputs(target), onConflict: { ...POLICIES, 'guilds.name': 'rename' } });
      await expect(run).rejects.toThrow(MergeInputsChangedError);
      await expect(run).rejects.toThrow(/snowkey merge reset/);
      expect(await dumpOf(target.oracle)).toBe(before);
    });

    test('GIVEN the fail policy and a target holding one clashing name THEN the run is refused listing every conflict, writes no row, and a rerun with rename as advised goes on to a merge that verifies', async () => {
      const target = await shards.create('m_fail');
      await target.oracle.query(
        "INSERT INTO accounts (id, email, handle, level) VALUES (9999, 'zz@x.io', 'Cora', 1)",
      );
      const before = await dumpOf(target.oracle);
      const failing = inputs(target, { onConflict: { ...POLICIES, 'accounts.handle': 'fail' } });
      const run = runMerge(failing);
      await expect(run).rejects.toThrow(MergeConflictError);
      const err = (await run.catch((e: unknown) => e)) as MergeConflictError;
      expect(err.code).toBe('SNOWKEY_MERGE_CONFLICT');
      // Cora (S1) clashes with the target's row; Aria and Bram (S2), Aria and Aria.S2 (S3) with S1's and S2's.
      expect(err.counts).toEqual({ 'accounts.handle': 4 });
      expect(err.message).toMatch(/accounts\.handle: 4 rows, e\.g\. accounts\.handle = "Cora" from S1/);
      expect(err.message).toMatch(/choose a policy for accounts\.handle \(rename or skip\)/);
      expect(await dumpOf(target.oracle)).toBe(before);
      const ok = await runMerge(inputs(target));
      expect(ok.complete).toBe(true);
      expect((await verifyMerge(inputs(target))).problems).toEqual([]);
      const [cora] = await target.oracle.query<{ handle: string }>(
        'SELECT handle FROM accounts WHERE id = 1003',
      );
      expect(cora!.handle).toBe('Cora.S1');
    });
  },
  { label: 'merge_any' },
);
