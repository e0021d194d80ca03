import { DEFAULT_LEASE_TABLE, layouts, leaseNodeId, manualClock } from '@snowkey/core';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeEachDialect } from '../../../test/helpers/databases.js';
import { knexSqlClient } from '../src/index.js';
import { openKnex } from './open-knex.js';

describeEachDialect('knexSqlClient', (ctx) => {
  let knex: Knex;
  beforeAll(() => {
    knex = openKnex(ctx.db);
  });
  afterAll(async () => {
    await knex?.destroy();
  });

  test('GIVEN writes with ? placeholders THEN execute resolves to the rows each wrote or matched', async () => {
    const client = knexSqlClient(knex);
    expect(client.dialect).toBe(ctx.dialect);
    await client.execute('CREATE TABLE kv (k BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL)');
    expect(
      await client.execute('INSERT INTO kv (k, v) VALUES (?, ?), (?, ?)', [2n ** 63n - 1n, 'max', 1, 'one']),
    ).toBe(2);
    expect(await client.execute('UPDATE kv SET v = ? WHERE k = ?', ['uno', 1])).toBe(1);
    expect(await client.execute('DELETE FROM kv WHERE k = ?', [5])).toBe(0);
    expect(await ctx.db.query('SELECT k, v FROM kv ORDER BY k')).toEqual([
      { k: '1', v: 'uno' },
      { k: '9223372036854775807', v: 'max' },
    ]);
  });

  test('GIVEN a SELECT THEN query resolves to its rows as objects by column name', async () => {
    const rows = await knexSqlClient(knex).query<{ k: unknown; v: string }>(
      'SELECT k, v FROM kv WHERE v = ?',
      ['max'],
    );
    expect(rows.map((r) => [String(r.k), r.v])).toEqual([['9223372036854775807', 'max']]);
    expect(await knexSqlClient(knex).query('SELECT k FROM kv WHERE 1 = 0')).toEqual([]);
  });

  test('GIVEN two leases through the Knex connection THEN they hold distinct node ids in the lease table until released', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const options = {
      client: knexSqlClient(knex),
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
    const released = await ctx.db.query<{ holder: string | null }>(
      `SELECT holder FROM ${DEFAULT_LEASE_TABLE}`,
    );
    expect(released).toEqual([{ holder: null }, { holder: null }]);
  });

  test('GIVEN a transaction THEN knexSqlClient refuses it, since a lease outlives it', async () => {
    await knex.transaction(async (trx) => {
      expect(() => knexSqlClient(trx)).toThrow(/"knex" must be a Knex instance \(not a transaction\)/);
    });
  });
});
