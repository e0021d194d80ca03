import {
  InvalidArgumentError,
  layouts,
  leaseNodeId,
  manualClock,
  Snowflake,
  type SqlClient,
} from '@snowkey/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeEachDialect } from '../../../test/helpers/databases.js';
import { prismaSqlClient, snowkey } from '../src/index.js';
import { createTestTables, openPrisma, type TestPrismaClient } from './helpers/prisma-test-client.js';

describeEachDialect('prismaSqlClient', (ctx) => {
  let prisma: TestPrismaClient;
  let client: SqlClient;
  beforeAll(async () => {
    prisma = await openPrisma(ctx.db);
    client = prismaSqlClient(prisma);
    await ctx.db.query('CREATE TABLE sc_item (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL)');
  });
  afterAll(() => prisma.$disconnect());

  test('GIVEN a plain or an extended client THEN the dialect is read from the Prisma client', () => {
    expect(client.dialect).toBe(ctx.dialect);
    expect(prismaSqlClient(prisma.$extends({ name: 'other' })).dialect).toBe(ctx.dialect);
  });

  test('GIVEN an INSERT of two rows with bigint parameters THEN execute resolves to 2 AND raw reads see the exact ids', async () => {
    const n = await client.execute('INSERT INTO sc_item (id, name) VALUES (?, ?), (?, ?)', [
      2n ** 63n - 1n,
      'max',
      2n ** 53n + 1n,
      'above 2^53',
    ]);
    expect(n).toBe(2);
    expect(await ctx.db.query('SELECT id, name FROM sc_item ORDER BY name')).toEqual([
      { id: '9007199254740993', name: 'above 2^53' },
      { id: '9223372036854775807', name: 'max' },
    ]);
  });

  test.each([
    ['one matching row', "UPDATE sc_item SET name = 'top' WHERE id = ?", 2n ** 63n - 1n, 1],
    ['no matching row', "UPDATE sc_item SET name = 'none' WHERE id = ?", 1n, 0],
  ])(
    'GIVEN an UPDATE with %s THEN execute resolves to the rows it changed',
    async (_case, sql, id, expected) => {
      expect(await client.execute(sql, [id])).toBe(expected);
    },
  );

  test('GIVEN a SELECT with a `?` in a string literal THEN query binds only the real placeholder and reads the id exactly', async () => {
    const rows = await client.query<{ q: string; id: unknown }>(
      "SELECT '?' AS q, id FROM sc_item WHERE id = ?",
      [2n ** 53n + 1n],
    );
    expect(rows).toEqual([{ q: '?', id: 2n ** 53n + 1n }]);
  });

  test('GIVEN two leases through the Prisma client THEN they hold distinct node ids AND a release frees the row', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const options = {
      client,
      layout: layouts.default,
      clock: clock.now,
      heartbeat: false,
      table: 'prisma_leases',
    };
    const first = await leaseNodeId(options);
    const second = await leaseNodeId(options);
    expect([first.nodeId, second.nodeId]).toEqual([0, 1]);

    const generator = new Snowflake({ layout: layouts.default, lease: first, clock: clock.now });
    const extended = prisma.$extends(snowkey({ generator, models: { Item: 'id' } }));
    await createTestTables(ctx.db);
    const item = await extended.item.create({ data: { name: 'leased', qty: 1 } });
    expect(generator.decode(item.id).workerId).toBe(0);

    await first.release();
    const held = await ctx.db.query<{ node_id: number; holder: string | null }>(
      'SELECT node_id, holder FROM prisma_leases ORDER BY node_id',
    );
    expect(held.map((r) => [Number(r.node_id), r.holder === null])).toEqual([
      [0, true],
      [1, false],
    ]);
    await second.release();
  });
});

describe('prismaSqlClient arguments', () => {
  const raw = {
    $queryRawUnsafe: async (): Promise<unknown[]> => [],
    $executeRawUnsafe: async (): Promise<number> => 0,
  };
  test.each([
    ['no client', undefined, undefined, 'prisma'],
    ['an object without raw methods', {}, undefined, 'prisma'],
    [
      'a client whose provider is unknown',
      { ...raw, _activeProvider: 'sqlserver' },
      undefined,
      'options.dialect',
    ],
    ['an unknown dialect option', raw, 'oracle', 'options.dialect'],
  ])('GIVEN %s THEN it throws InvalidArgumentError naming "%s"', (_label, prisma, dialect, argument) => {
    const call = () => prismaSqlClient(prisma as never, { dialect: dialect as never });
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`"${argument}" must be`);
  });
});
