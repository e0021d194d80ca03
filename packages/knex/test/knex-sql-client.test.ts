import { describeEachDialect } from '@snowkey/test-harness';
import { appTransactionContract } from '@snowkey/test-harness/app-transaction-contract';
import { sqlClientContract } from '@snowkey/test-harness/sql-client-contract';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, test } from 'vitest';
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

  sqlClientContract(ctx, () => knexSqlClient(knex), { refusesQuotedQuestionMark: ['sqlite'] });
  appTransactionContract(ctx, {
    client: () => knexSqlClient(knex),
    rolledBack: (table, work) =>
      knex.transaction(async (trx) => {
        await trx.raw(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`);
        await work();
      }),
    // SQLite: Knex's pool holds one connection, and the transaction has it until it ends.
    whileOpen: ctx.dialect === 'sqlite' ? 'waits' : 'runs apart',
  });

  test('GIVEN the contract rows THEN query reads 2^63-1 back exactly through the Knex pool', async () => {
    const rows = await knexSqlClient(knex).query<{ id: unknown }>('SELECT id FROM sc_contract WHERE id = ?', [
      2n ** 63n - 1n,
    ]);
    expect(rows.map((r) => String(r.id))).toEqual(['9223372036854775807']);
  });

  test('GIVEN a DELETE that matches nothing and an INSERT of a Number id THEN execute counts rows AND raw reads agree', async () => {
    const client = knexSqlClient(knex);
    expect(await client.execute('DELETE FROM sc_contract WHERE id = ?', [5])).toBe(0);
    expect(await client.execute('INSERT INTO sc_contract (id, name) VALUES (?, ?)', [1, 'one'])).toBe(1);
    expect(await ctx.db.query('SELECT id, name FROM sc_contract WHERE id = ?', [1])).toEqual([
      { id: '1', name: 'one' },
    ]);
  });

  test('GIVEN a transaction THEN knexSqlClient refuses it, since a lease outlives it', async () => {
    await knex.transaction(async (trx) => {
      expect(() => knexSqlClient(trx)).toThrow(/"knex" must be a Knex instance \(not a transaction\)/);
    });
  });
});
