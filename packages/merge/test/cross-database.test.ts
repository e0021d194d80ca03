import { selectedDialects } from '@snowkey/test-harness';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runMerge, verifyMerge } from '../src/index.js';
import { danglingOf, Shards, type TestShard } from './support/shards.js';

const ACCOUNTS = (p: string): [string, string][] =>
  Array.from({ length: 10 }, (_, i) => [`${p}${i}@x.io`, i < 3 ? `Same${i}` : `${p}${i}`]);
const both = ['postgres', 'mysql'].every((d) => selectedDialects().includes(d as 'postgres'));

describe.runIf(both)(
  'three servers on two kinds of database: a PostgreSQL shard into a MariaDB target',
  () => {
    const my = new Shards('mysql');
    const pg = new Shards('postgres');
    let sources: TestShard[];
    let target: TestShard;
    const inputs = () => ({
      sources: sources.map((s, i) => ({ label: `S${i + 1}`, db: s.db })),
      target: target.db,
      onConflict: { 'accounts.handle': 'rename', 'guilds.name': 'rename' } as const,
      exclude: ['audit_log'],
    });

    beforeAll(async () => {
      sources = [
        await my.create('x_s1', 'given', { base: 1000, accounts: ACCOUNTS('a') }),
        await my.create('x_s2', 'given', { base: 2000, accounts: ACCOUNTS('b') }),
        await pg.create('x_s3', 'given', { base: 3000, accounts: ACCOUNTS('c') }),
      ];
      target = await my.create('x_merged');
    });
    afterAll(async () => {
      await my.dropAll();
      await pg.dropAll();
    });

    test('GIVEN S1 and S2 on MariaDB and S3 on PostgreSQL WHEN merged into MariaDB THEN every row of all three is there, renamed where taken, and verifies', async () => {
      const run = await runMerge({ ...inputs(), batchSize: 4 });
      expect(run.totals.renames).toBe(6 + 4);
      const v = await verifyMerge(inputs());
      expect(v.problems).toEqual([]);
      expect(await danglingOf(target.oracle)).toBe(0);
      const [n] = await target.oracle.query<{ n: unknown }>(
        'SELECT COUNT(*) AS n FROM accounts WHERE id > 3000',
      );
      expect(Number(n!.n)).toBe(10);
      const renamed = await target.oracle.query<{ handle: string }>(
        "SELECT handle FROM accounts WHERE handle LIKE 'Same0%' ORDER BY id",
      );
      expect(renamed.map((r) => r.handle)).toEqual(['Same0', 'Same0.S2', 'Same0.S3']);
    });
  },
);
