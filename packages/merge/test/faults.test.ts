import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { layouts } from '@snowkey/core';
import { createTestDatabase, type Dialect, describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  DatabaseNotFoundError,
  exportMaps,
  InvalidKeyError,
  MergeInputsChangedError,
  MergeSchemaError,
  openDatabase,
  planMerge,
  resetMerge,
  resetRekey,
  runMerge,
  runRekey,
  verifyMerge,
  verifyRekey,
} from '../src/index.js';
import { dumpOf, Shards, type TestShard } from './support/shards.js';

const ACCOUNTS = (p: string): [string, string][] =>
  Array.from({ length: 6 }, (_, i) => [`${p}${i}@x.io`, i < 2 ? `Same${i}` : `${p}${i}`]);
const POLICIES = { 'accounts.handle': 'rename', 'guilds.name': 'skip' } as const;
const NOW = Date.UTC(2026, 2, 1);

/** A URL of the dialect naming a database (or file) that does not exist. */
function missingUrl(dialect: Dialect, like: string): string {
  if (dialect === 'sqlite') return `file:${join(mkdtempSync(join(tmpdir(), 'sk-missing-')), 'gone.sqlite')}`;
  const u = new URL(like);
  u.pathname = `/sk_missing_${process.pid}_${Date.now()}`;
  return u.toString();
}

/** Tables whose key is a decimal that may hold fractions, for the key checks. */
function tokenSchema(dialect: Dialect, key: 'decimal' | 'bigint'): string {
  const type = key === 'bigint' ? 'BIGINT' : dialect === 'sqlite' ? 'BIGINT' : 'DECIMAL(22, 2)';
  return `CREATE TABLE tokens (id ${type} NOT NULL PRIMARY KEY, note VARCHAR(10) NOT NULL)`;
}

describeEachDialect(
  'faults an operator meets: missing databases, bad keys, drift, a reset',
  (ctx) => {
    const shards = new Shards(ctx.dialect);
    let s1: TestShard;
    let s2: TestShard;
    const inputs = (target: TestShard, more: object = {}) => ({
      sources: [
        { label: 'S1', db: s1.db },
        { label: 'S2', db: s2.db },
      ],
      target: target.db,
      onConflict: POLICIES,
      exclude: ['audit_log'],
      ...more,
    });

    beforeAll(async () => {
      s1 = await shards.create('f_s1', 'given', { base: 1000, accounts: ACCOUNTS('a') });
      s2 = await shards.create('f_s2', 'given', { base: 2000, accounts: ACCOUNTS('b') });
    });
    afterAll(() => shards.dropAll());

    test('GIVEN a source or target URL naming a database that does not exist THEN openDatabase refuses it and creates nothing', async () => {
      for (const readonly of [true, false]) {
        const url = missingUrl(ctx.dialect, s1.oracle.url);
        const open = openDatabase(url, { readonly });
        await expect(open).rejects.toThrow(DatabaseNotFoundError);
        await expect(open).rejects.toMatchObject({ code: 'SNOWKEY_DATABASE_NOT_FOUND' });
        if (ctx.dialect === 'sqlite') expect(existsSync(url.replace(/^file:/, ''))).toBe(false);
        else await expect(openDatabase(url)).rejects.toThrow(/no such database/);
      }
    });

    test('GIVEN a source database without tables THEN the merge is refused before writing, naming the source', async () => {
      const empty = await createTestDatabase(ctx.dialect, 'f_empty');
      const db = await openDatabase(empty.url, { readonly: true });
      const target = await shards.create('f_t_empty');
      try {
        const before = await dumpOf(target.oracle);
        const run = runMerge({
          ...inputs(target),
          sources: [...inputs(target).sources, { label: 'S3', db }],
        });
        await expect(run).rejects.toThrow(MergeSchemaError);
        await expect(run).rejects.toThrow(/source S3 .* has no tables/);
        await expect(run).rejects.toThrow(/schema drift S3:accounts/);
        expect(await dumpOf(target.oracle)).toBe(before);
      } finally {
        await db.close();
        await empty.drop();
      }
    });

    test.each(['rekey', 'merge'] as const)(
      'GIVEN keys that are not integers in -2^63..2^63-1 WHEN a %s reads them THEN it is refused naming table, column and value, and writes nothing',
      async (job) => {
        const bad = ctx.dialect === 'sqlite' ? ["'x7'", '2.5', '1e20'] : ['2.5', '99999999999999999999'];
        for (const value of bad) {
          const source = await createTestDatabase(ctx.dialect, 'f_keys');
          const target = await createTestDatabase(ctx.dialect, 'f_keys_t');
          await source.query(tokenSchema(ctx.dialect, 'decimal'));
          await target.query(tokenSchema(ctx.dialect, 'bigint'));
          await source.query(`INSERT INTO tokens (id, note) VALUES (1, 'fine'), (${value}, 'bad')`);
          const [s, t] = [await openDatabase(source.url, { readonly: true }), await openDatabase(target.url)];
          try {
            const run =
              job === 'rekey'
                ? runRekey({
                    source: s,
                    target: t,
                    layout: layouts.gameServer,
                    node: { serverId: 1 },
                    clock: () => NOW,
                  })
                : runMerge({ sources: [{ label: 'S1', db: s }], target: t });
            await expect(run, value).rejects.toThrow(InvalidKeyError);
            const err = (await run.catch((e: unknown) => e)) as InvalidKeyError;
            expect(err).toMatchObject({ code: 'SNOWKEY_INVALID_KEY', table: 'tokens', column: 'id' });
            expect(err.message).toMatch(/tokens\.id of .* holds/);
            const [n] = await target.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM tokens');
            expect(Number(n!.n), value).toBe(0);
          } finally {
            await s.close();
            await t.close();
            await source.drop();
            await target.drop();
          }
        }
      },
    );

    test('GIVEN shards whose schemas drift THEN the plan names each difference, the run refuses until each is accepted, and then verifies', async () => {
      const d1 = await shards.create('f_d1', 'given', { base: 1000, accounts: ACCOUNTS('a') });
      const d2 = await shards.create('f_d2', 'given', { base: 2000, accounts: ACCOUNTS('b') });
      const target = await shards.create('f_dt');
      await d2.oracle.query('DROP TABLE audit_log');
      await d2.oracle.query('CREATE TABLE audit_log (at_ms BIGINT NOT NULL, line VARCHAR(80) NOT NULL)');
      await target.oracle.query('ALTER TABLE accounts ADD COLUMN nickname VARCHAR(20)');
      await d1.oracle.query('ALTER TABLE accounts ADD COLUMN nickname VARCHAR(20)');
      await d1.oracle.query("UPDATE accounts SET nickname = 'nick'");
      const drift = {
        sources: [
          { label: 'S1', db: d1.db },
          { label: 'S2', db: d2.db },
        ],
        target: target.db,
        onConflict: POLICIES,
        exclude: [],
      };
      const plan = await planMerge(drift);
      expect(plan.drift.map((d) => d.id).sort()).toEqual(['S2:accounts.nickname', 'S2:audit_log.line']);
      expect(plan.problems).toContainEqual(expect.stringContaining('schema drift S2:accounts.nickname'));
      expect(plan.ok).toBe(false);
      const before = await dumpOf(target.oracle);
      await expect(runMerge(drift)).rejects.toThrow(
        /schema drift S2:accounts\.nickname: column accounts\.nickname is missing on S2/,
      );
      expect(await dumpOf(target.oracle)).toBe(before);
      const accepted = { ...drift, exclude: ['audit_log'], acceptDrift: ['S2:accounts.nickname'] };
      expect((await planMerge(accepted)).ok).toBe(true);
      await runMerge(accepted);
      expect((await verifyMerge(accepted)).problems).toEqual([]);
      const nicks = await target.oracle.query<{ id: unknown; nickname: string | null }>(
        'SELECT id, nickname FROM accounts ORDER BY id',
      );
      expect(nicks.filter((r) => Number(r.id) < 2000).every((r) => r.nickname === 'nick')).toBe(true);
      expect(nicks.filter((r) => Number(r.id) > 2000).every((r) => r.nickname === null)).toBe(true);
    });

    test('GIVEN a merge that wrote rows WHEN reset THEN the target is as before, and a run with another policy verifies', async () => {
      const target = await shards.create('f_reset');
      await target.oracle.query(
        "INSERT INTO accounts (id, email, handle, level) VALUES (9, 'old@x.io', 'Old', 1)",
      );
      const before = await dumpOf(target.oracle);
      const first = await runMerge({ ...inputs(target), batchSize: 2, stopAfterBatches: 60 });
      expect(first.totals.copied).toBeGreaterThan(0);
      const other = { ...inputs(target), onConflict: { ...POLICIES, 'guilds.name': 'rename' } as const };
      await expect(runMerge(other)).rejects.toThrow(MergeInputsChangedError);
      expect(await resetMerge(inputs(target))).toBe(first.totals.copied);
      expect(await dumpOf(target.oracle)).toBe(before);
      const again = await runMerge(other);
      expect(again.totals.skipped).toBe(0);
      expect((await verifyMerge(other)).problems).toEqual([]);
      const csv: string[] = [];
      const n = await exportMaps(target.db, { job: 'merge', format: 'csv', write: (t) => csv.push(t) });
      const lines = csv.join('').trim().split('\n');
      expect(lines[0]).toBe('kind,table,source,key,column,old,new');
      expect(lines).toHaveLength(n + 1);
      expect(lines).toContain('rename,accounts,S2,2001,handle,Same0,Same0.S2');
      expect(lines).toContain('rename,guilds,S2,2001,name,Guild0,Guild0.S2');
    });

    test('GIVEN a rekey WHEN its map is exported THEN every old id has its new id, and a reset empties the target', async () => {
      const ai = await shards.create('f_ai', 'autoincrement', { base: 0, accounts: ACCOUNTS('c') });
      const target = await shards.create('f_rk');
      const options = {
        source: ai.db,
        target: target.db,
        layout: layouts.gameServer,
        node: { serverId: 5 },
        exclude: ['audit_log'],
        clock: () => NOW,
      };
      await runRekey(options);
      expect((await verifyRekey(options)).ok).toBe(true);
      const json: string[] = [];
      const n = await exportMaps(target.db, { job: 'rekey', format: 'json', write: (t) => json.push(t) });
      const map = JSON.parse(json.join('')) as { table: string; old_id: string; new_id: string }[];
      expect(map).toHaveLength(n);
      const [row] = await target.oracle.query<{ old_id: unknown; new_id: unknown }>(
        "SELECT old_id, new_id FROM snowkey_rekey_map WHERE table_name = 'accounts' AND old_id = 3",
      );
      expect(map).toContainEqual({ table: 'accounts', old_id: '3', new_id: String(row!.new_id) });
      expect(await resetRekey(options)).toBeGreaterThan(0);
      const [left] = await target.oracle.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM accounts');
      expect(Number(left!.n)).toBe(0);
      await runRekey(options);
      expect((await verifyRekey(options)).ok).toBe(true);
    });
  },
  { label: 'faults' },
);
