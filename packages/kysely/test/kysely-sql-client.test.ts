import { layouts, leaseNodeId, manualClock } from '@snowkey/core';
import { DEFAULT_LEASE_TABLE } from '@snowkey/core/adapter';
import { describeEachDialect } from '@snowkey/test-harness';
import { appTransactionContract } from '@snowkey/test-harness/app-transaction-contract';
import { sqlClientContract } from '@snowkey/test-harness/sql-client-contract';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { kyselySqlClient } from '../src/index.js';
import { openKysely } from './open-kysely.js';

describeEachDialect('kyselySqlClient', (ctx) => {
  let db: Kysely<unknown>;
  beforeAll(() => {
    db = openKysely(ctx.db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  sqlClientContract(ctx, () => kyselySqlClient(db));
  appTransactionContract(ctx, {
    client: () => kyselySqlClient(db),
    rolledBack: (table, work) =>
      db.transaction().execute(async (trx) => {
        await sql.raw(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`).execute(trx);
        await work();
      }),
    // SQLite: Kysely's SqliteDriver has one connection, and the transaction has it until it ends.
    whileOpen: ctx.dialect === 'sqlite' ? 'waits' : 'runs apart',
  });

  test('GIVEN the contract rows THEN query reads 2^63-1 back exactly through the Kysely pool', async () => {
    const rows = await kyselySqlClient(db).query<{ id: unknown }>('SELECT id FROM sc_contract WHERE id = ?', [
      2n ** 63n - 1n,
    ]);
    expect(rows).toEqual([{ id: 2n ** 63n - 1n }]);
  });

  test('GIVEN two leases through the Kysely pool THEN they hold distinct node ids in the lease table until released', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const options = {
      client: kyselySqlClient(db),
      layout: layouts.default,
      clock: clock.now,
      heartbeat: false,
    };
    const first = await leaseNodeId(options);
    const second = await leaseNodeId(options);
    expect([first.nodeId, second.nodeId]).toEqual([0, 1]);
    const held = await ctx.db.query<{ node_id: unknown; holder: string | null }>(
      `SELECT node_id, holder FROM ${DEFAULT_LEASE_TABLE} ORDER BY node_id`,
    );
    expect(held.map((r) => [Number(r.node_id), r.holder !== null])).toEqual([
      [0, true],
      [1, true],
    ]);
    await first.release();
    await second.release();
    expect(await ctx.db.query(`SELECT holder FROM ${DEFAULT_LEASE_TABLE}`)).toEqual([
      { holder: null },
      { holder: null },
    ]);
  });

  test('GIVEN a transaction THEN kyselySqlClient refuses it, since a lease outlives it', async () => {
    await db.transaction().execute(async (trx) => {
      expect(() => kyselySqlClient(trx)).toThrow(/"db" must be a Kysely instance \(not a transaction\)/);
    });
  });
});
