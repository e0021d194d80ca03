import {
  InvalidArgumentError,
  layouts,
  leaseNodeId,
  manualClock,
  Snowflake,
  type SqlClient,
} from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { appTransactionContract } from '@snowkey/test-harness/app-transaction-contract';
import { sqlClientContract } from '@snowkey/test-harness/sql-client-contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prismaSqlClient, snowkey } from '../src/index.js';
import { createTestTables, openPrisma, type TestPrismaClient } from './helpers/prisma-test-client.js';

describeEachDialect('prismaSqlClient', (ctx) => {
  let prisma: TestPrismaClient;
  let client: SqlClient;
  beforeAll(async () => {
    prisma = await openPrisma(ctx.db);
    client = prismaSqlClient(prisma);
  });
  afterAll(() => prisma.$disconnect());

  sqlClientContract(ctx, () => client);
  appTransactionContract(ctx, {
    client: () => client,
    rolledBack: (table, work) =>
      prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`);
        await work();
      }),
    whileOpen: ctx.dialect === 'sqlite' ? 'waits' : 'runs apart',
  });

  test('GIVEN the tx of an interactive transaction THEN prismaSqlClient refuses it, naming prisma', async () => {
    const refused = await prisma.$transaction(async (tx) => {
      try {
        prismaSqlClient(tx as never);
      } catch (err) {
        return err;
      }
    });
    expect(refused).toBeInstanceOf(InvalidArgumentError);
    expect(refused).toMatchObject({ argument: 'prisma' });
  });

  test('GIVEN an extended client THEN the dialect is read from the Prisma client too', () => {
    expect(prismaSqlClient(prisma.$extends({ name: 'other' })).dialect).toBe(ctx.dialect);
  });

  test('GIVEN the contract rows THEN query reads a BIGINT above 2^53 back as an exact bigint', async () => {
    const rows = await client.query<{ id: unknown }>('SELECT id FROM sc_contract WHERE id = ?', [
      2n ** 53n + 1n,
    ]);
    expect(rows).toEqual([{ id: 2n ** 53n + 1n }]);
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
    $transaction: async (): Promise<unknown[]> => [],
    $connect: async (): Promise<void> => {},
  };
  test.each([
    ['no client', undefined, undefined, 'prisma'],
    ['an object without raw methods', {}, undefined, 'prisma'],
    [
      'the tx of an interactive transaction (no $connect)',
      { ...raw, $connect: undefined },
      undefined,
      'prisma',
    ],
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
