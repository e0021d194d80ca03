import { AsyncLocalStorage } from 'node:async_hooks';
import { describeEachDialect } from '@snowkey/test-harness';
import {
  type AppTransactionContractOptions,
  appTransactionContract,
} from '@snowkey/test-harness/app-transaction-contract';
import { sqlClientContract } from '@snowkey/test-harness/sql-client-contract';
import Database from 'better-sqlite3';
import { Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { betterSqlite3Module, sequelizeSqlClient } from '../src/index.js';
import { openSequelize } from './open-sequelize.js';

describeEachDialect('sequelizeSqlClient', (ctx) => {
  let sequelize: Sequelize;
  beforeAll(() => {
    sequelize = openSequelize(ctx.db);
  });
  afterAll(async () => {
    await sequelize?.close();
  });

  sqlClientContract(ctx, () => sequelizeSqlClient(sequelize));
  describe('with an application transaction open', () => {
    // On SQLite Sequelize gives each transaction a connection of its own, so the client's write
    // meets the transaction's lock: busy_timeout 0 makes SQLite refuse it at once.
    let apart: Sequelize;
    beforeAll(() => {
      apart = openSequelize(
        ctx.db,
        ctx.dialect === 'sqlite'
          ? {
              dialectModule: betterSqlite3Module(Database, {
                onConnect: (db) => db.pragma('busy_timeout = 0'),
              }),
            }
          : {},
      );
    });
    afterAll(async () => {
      await apart?.close();
    });
    const contract: AppTransactionContractOptions = {
      client: () => sequelizeSqlClient(apart),
      rolledBack: (table, work) =>
        apart.transaction(async (transaction) => {
          await apart.query(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`, { transaction });
          await work();
        }),
      whileOpen: ctx.dialect === 'sqlite' ? 'refused' : 'runs apart',
      refusal: { parent: { code: 'SQLITE_BUSY' } },
    };
    appTransactionContract(ctx, contract);

    describe('and a CLS namespace in use (Sequelize.useCLS), which hands queries the transaction in scope', () => {
      beforeAll(() => {
        Sequelize.useCLS(asyncLocalNamespace());
      });
      afterAll(() => {
        delete (Sequelize as unknown as { _cls?: unknown })._cls;
      });
      appTransactionContract(ctx, contract);
    });
  });

  test("GIVEN SQL with a '$' inside a quoted string THEN it is refused with InvalidArgumentError naming sql", async () => {
    await expect(sequelizeSqlClient(sequelize).query("SELECT '$1' AS q")).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      argument: 'sql',
    });
  });

  if (ctx.dialect === 'mysql') {
    test('GIVEN the mariadb dialect THEN it is refused without foundRows, and meets the contract with it', async () => {
      const plain = openSequelize(ctx.db, { mysqlDialect: 'mariadb' });
      const found = openSequelize(ctx.db, { mysqlDialect: 'mariadb', dialectOptions: { foundRows: true } });
      try {
        expect(() => sequelizeSqlClient(plain)).toThrow(/foundRows: true/);
        const client = sequelizeSqlClient(found);
        expect(
          await client.execute('UPDATE sc_contract SET name = name WHERE id = ?', [2n ** 63n - 1n]),
        ).toBe(1);
      } finally {
        await plain.close();
        await found.close();
      }
    });
  }
});

/** A CLS namespace for `Sequelize.useCLS` on AsyncLocalStorage: what cls-hooked gives Sequelize. */
function asyncLocalNamespace() {
  const storage = new AsyncLocalStorage<Map<string, unknown>>();
  return {
    run: (fn: (context: Map<string, unknown>) => unknown) => {
      const context = new Map<string, unknown>();
      return storage.run(context, () => fn(context));
    },
    bind: <F>(fn: F) => fn,
    get: (key: string) => storage.getStore()?.get(key),
    set: (key: string, value: unknown) => storage.getStore()?.set(key, value),
  };
}
