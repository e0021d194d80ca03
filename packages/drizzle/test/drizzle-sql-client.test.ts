import { describeEachDialect } from '@snowkey/test-harness';
import { appTransactionContract } from '@snowkey/test-harness/app-transaction-contract';
import { sqlClientContract } from '@snowkey/test-harness/sql-client-contract';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { drizzleSqlClient } from '../src/index.js';
import { type OpenedDrizzle, openDrizzle } from './open-drizzle.js';

describeEachDialect('drizzleSqlClient', (ctx) => {
  let opened: OpenedDrizzle;
  beforeAll(() => {
    opened = openDrizzle(ctx.db);
  });
  afterAll(async () => {
    await opened?.close();
  });

  sqlClientContract(ctx, () => drizzleSqlClient(opened.db));
  appTransactionContract(ctx, {
    client: () => drizzleSqlClient(opened.db),
    rolledBack: (table, work) => rolledBack(opened, table, work),
    whileOpen: ctx.dialect === 'sqlite' ? 'refused' : 'runs apart',
    refusal: { name: 'ConnectionInTransactionError' },
  });

  test('GIVEN the contract rows THEN query reads 2^63-1 back exactly through the Drizzle connection', async () => {
    const rows = await drizzleSqlClient(opened.db).query<{ id: unknown }>(
      'SELECT id FROM sc_contract WHERE id = ?',
      [2n ** 63n - 1n],
    );
    expect(rows.map((r) => String(r.id))).toEqual(['9223372036854775807']);
  });

  test('GIVEN a transaction THEN drizzleSqlClient refuses it, since a lease outlives it', async () => {
    const refuse = (tx: unknown) => () => drizzleSqlClient(tx as never);
    const expected =
      /"db" must be a Drizzle database \(not a transaction\) on node-postgres, mysql2, better-sqlite3/;
    if (opened.dialect === 'sqlite') {
      opened.db.transaction((tx) => expect(refuse(tx)).toThrow(expected));
    } else if (opened.dialect === 'postgres') {
      await opened.db.transaction(async (tx) => expect(refuse(tx)).toThrow(expected));
    } else {
      await opened.db.transaction(async (tx) => expect(refuse(tx)).toThrow(expected));
    }
  });
});

describeEachDialect(
  'drizzleSqlClient on a single connection',
  (ctx) => {
    test('GIVEN a Drizzle database on one pg Client or mysql2 connection, where Drizzle runs its transactions THEN drizzleSqlClient refuses it, naming db', async () => {
      let db: Parameters<typeof drizzleSqlClient>[0];
      let close: () => Promise<void>;
      if (ctx.dialect === 'postgres') {
        const client = new pg.Client({ connectionString: ctx.db.url });
        db = drizzlePg(client);
        close = async () => {};
      } else {
        const connection = await mysql.createConnection({ uri: ctx.db.url });
        db = drizzleMysql(connection);
        close = () => connection.end();
      }
      try {
        expect(() => drizzleSqlClient(db)).toThrow(
          /"db" must be a Drizzle database on a (pg Pool|mysql2 pool) .*\(received "a database on a single (pg Client|mysql2 connection)"\)/,
        );
      } finally {
        await close();
      }
    });
  },
  { dialects: ['postgres', 'mysql'] },
);

/**
 * An application transaction on `opened` that inserts a row into `table`, awaits `work` and rolls
 * back when it throws. better-sqlite3 runs a Drizzle transaction synchronously (it refuses an async
 * callback), so on SQLite the application opens one with BEGIN and ROLLBACK on the connection.
 */
async function rolledBack(opened: OpenedDrizzle, table: string, work: () => Promise<void>): Promise<void> {
  const insert = sql.raw(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`);
  if (opened.dialect === 'sqlite') {
    opened.db.run(sql`BEGIN`);
    try {
      opened.db.run(insert);
      await work();
      opened.db.run(sql`COMMIT`);
    } catch (err) {
      opened.db.run(sql`ROLLBACK`);
      throw err;
    }
    return;
  }
  if (opened.dialect === 'postgres') {
    await opened.db.transaction(async (tx) => {
      await tx.execute(insert);
      await work();
    });
    return;
  }
  await opened.db.transaction(async (tx) => {
    await tx.execute(insert);
    await work();
  });
}
