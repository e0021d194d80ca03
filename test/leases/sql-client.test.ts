import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { type OpenedSqlClient, openSqlClient } from './open-sql-client.js';

describeEachDialect('SqlClient driver factories', (ctx) => {
  let opened: OpenedSqlClient;
  beforeAll(async () => {
    opened = await openSqlClient(ctx.db);
    await ctx.db.query('CREATE TABLE sc_item (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL)');
  });
  afterAll(() => opened.close());

  test('GIVEN an INSERT of two rows with bigint parameters THEN execute resolves to 2 AND raw reads see the exact ids', async () => {
    const n = await opened.client.execute('INSERT INTO sc_item (id, name) VALUES (?, ?), (?, ?)', [
      9223372036854775807n,
      'max',
      9007199254740993n,
      'above 2^53',
    ]);
    expect(n).toBe(2);
    expect(await ctx.db.query('SELECT id, name FROM sc_item ORDER BY name')).toEqual([
      { id: '9007199254740993', name: 'above 2^53' },
      { id: '9223372036854775807', name: 'max' },
    ]);
  });

  test.each([
    ['one matching row', "UPDATE sc_item SET name = 'top' WHERE id = ?", 9223372036854775807n, 1],
    ['no matching row', "UPDATE sc_item SET name = 'none' WHERE id = ?", 1n, 0],
    // MySQL reports matched rows only with CLIENT_FOUND_ROWS, which mysql2 sets by default.
    [
      'a matching row it leaves as it was',
      'UPDATE sc_item SET name = name WHERE id = ?',
      9223372036854775807n,
      1,
    ],
  ])(
    'GIVEN an UPDATE with %s THEN execute resolves to the rows its WHERE matched',
    async (_case, sql, id, expected) => {
      expect(await opened.client.execute(sql, [id])).toBe(expected);
    },
  );

  test('GIVEN a SELECT with a `?` in a string literal THEN query binds only the real placeholder', async () => {
    const rows = await opened.client.query<{ q: string; name: string }>(
      "SELECT '?' AS q, name FROM sc_item WHERE id = ?",
      [9007199254740993n],
    );
    expect(rows).toEqual([{ q: '?', name: 'above 2^53' }]);
  });

  test('GIVEN a closed connection THEN query rejects with the driver error', async () => {
    const other = await openSqlClient(ctx.db);
    await other.close();
    await expect(other.client.query('SELECT 1 AS one')).rejects.toThrow();
  });
});
