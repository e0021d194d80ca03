import { afterAll, beforeAll, expect, test } from 'vitest';
import { sqlClientContract } from '../conformance/sql-client-contract.js';
import { describeEachDialect } from '../helpers/databases.js';
import { type OpenedSqlClient, openSqlClient } from './open-sql-client.js';

describeEachDialect('SqlClient driver factories', (ctx) => {
  let opened: OpenedSqlClient;
  beforeAll(async () => {
    opened = await openSqlClient(ctx.db);
  });
  afterAll(() => opened.close());

  sqlClientContract(ctx, () => opened.client);

  test('GIVEN a closed connection THEN query rejects with the driver error', async () => {
    const other = await openSqlClient(ctx.db);
    await other.close();
    // Each driver's own words for a closed pool or database (pg, mysql2, better-sqlite3).
    await expect(other.client.query('SELECT 1 AS one')).rejects.toThrow(
      {
        postgres: /Cannot use a pool after calling end/,
        mysql: /Pool is closed/,
        sqlite: /database connection is not open/,
      }[ctx.dialect],
    );
  });
});
