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

  test('GIVEN a transaction THEN kyselySqlClient refuses it, since a lease outlives it', async () => {
    await db.transaction().execute(async (trx) => {
      expect(() => kyselySqlClient(trx)).toThrow(/"db" must be a Kysely instance \(not a transaction\)/);
    });
  });
});
