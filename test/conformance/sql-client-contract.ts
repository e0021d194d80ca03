import { layouts, leaseNodeId, manualClock, type SqlClient } from '@snowkey/core';
import { beforeAll, expect, test } from 'vitest';
import type { DialectContext } from '../helpers/describe-each-dialect.js';

const MAX = 2n ** 63n - 1n;
const ABOVE_2_53 = 2n ** 53n + 1n;
const LEASE_TABLE = 'sc_contract_leases';

/**
 * The SqlClient contract that leases rely on, registered inside a `describeEachDialect` block for
 * one SqlClient factory (core's driver factories, typeormSqlClient, prismaSqlClient,
 * knexSqlClient). Every write is checked with raw SQL reads through the harness, never through the
 * client under test. The block's database must not yet hold a table named `sc_contract` or
 * `sc_contract_leases`.
 *
 * @example
 * describeEachDialect('knexSqlClient', (ctx) => {
 *   sqlClientContract(ctx, () => knexSqlClient(knex));
 * });
 */
export function sqlClientContract(
  ctx: DialectContext,
  client: () => SqlClient,
  options: {
    /** Dialects on which the client refuses a `?` inside a quoted string (a typed error naming `sql`). */
    refusesQuotedQuestionMark?: readonly string[];
  } = {},
): void {
  const refusesQuoted = options.refusesQuotedQuestionMark?.includes(ctx.dialect) ?? false;
  beforeAll(async () => {
    await ctx.db.query(
      'CREATE TABLE sc_contract (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL)',
    );
  });

  test('GIVEN the client THEN its dialect is the database it runs on', () => {
    expect(client().dialect).toBe(ctx.dialect);
  });

  test('GIVEN an INSERT of two rows with bigint parameters THEN execute resolves to 2 AND raw reads see the exact ids', async () => {
    const n = await client().execute('INSERT INTO sc_contract (id, name) VALUES (?, ?), (?, ?)', [
      MAX,
      'max',
      ABOVE_2_53,
      'above 2^53',
    ]);
    expect(n).toBe(2);
    expect(await ctx.db.query('SELECT id, name FROM sc_contract ORDER BY name')).toEqual([
      { id: '9007199254740993', name: 'above 2^53' },
      { id: '9223372036854775807', name: 'max' },
    ]);
  });

  test.each([
    ['one matching row', "UPDATE sc_contract SET name = 'top' WHERE id = ?", MAX, 1],
    ['no matching row', "UPDATE sc_contract SET name = 'none' WHERE id = ?", 1n, 0],
    // MySQL reports matched rows only with CLIENT_FOUND_ROWS; a lease write must count them.
    ['a matching row it leaves as it was', 'UPDATE sc_contract SET name = name WHERE id = ?', MAX, 1],
  ])(
    'GIVEN an UPDATE with %s THEN execute resolves to the rows its WHERE matched',
    async (_case, sql, id, expected) => {
      expect(await client().execute(sql, [id])).toBe(expected);
    },
  );

  test('GIVEN a SELECT with a `?` in a string literal THEN query binds only the real placeholder and returns rows by column name', async () => {
    // Only `name` is read back here: whether BIGINT comes back exact depends on the driver settings
    // each factory's own tests prove.
    const select = () =>
      client().query<{ q: string; name: string }>("SELECT '?' AS q, name FROM sc_contract WHERE id = ?", [
        ABOVE_2_53,
      ]);
    if (refusesQuoted) {
      await expect(select()).rejects.toMatchObject({ name: 'InvalidArgumentError', argument: 'sql' });
    } else {
      expect(await select()).toEqual([{ q: '?', name: 'above 2^53' }]);
    }
    expect(await client().query('SELECT id FROM sc_contract WHERE 1 = 0')).toEqual([]);
  });

  test('GIVEN two leases through the client THEN they hold distinct node ids in the lease table until released', async () => {
    const options = {
      client: client(),
      layout: layouts.default,
      clock: manualClock(Date.UTC(2026, 0, 1)).now,
      heartbeat: false,
      table: LEASE_TABLE,
    };
    const first = await leaseNodeId(options);
    const second = await leaseNodeId(options);
    expect([first.nodeId, second.nodeId]).toEqual([0, 1]);
    const held = await ctx.db.query<{ node_id: unknown; holder: string | null }>(
      `SELECT node_id, holder FROM ${LEASE_TABLE} ORDER BY node_id`,
    );
    expect(held.map((r) => [Number(r.node_id), r.holder !== null])).toEqual([
      [0, true],
      [1, true],
    ]);
    await first.release();
    await second.release();
    expect(await ctx.db.query(`SELECT holder FROM ${LEASE_TABLE}`)).toEqual([
      { holder: null },
      { holder: null },
    ]);
  });
}
