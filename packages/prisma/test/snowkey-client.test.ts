import { InvalidArgumentError } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { snowkeyClient } from '../src/index.js';
import { counterGenerator } from './helpers/counter-generator.js';
import { TEST_DATA_MODEL, TEST_MODELS } from './helpers/extended-prisma.js';
import { itemIds as itemIdsNamed } from './helpers/item-rows.js';
import { createTestTables, openPrisma, type TestPrismaClient } from './helpers/prisma-test-client.js';

// What only the wrapper has to get right; the writes themselves run through it in
// create-operations, nested-writes, transactions and composition.test.ts.
describeEachDialect('@snowkey/prisma snowkeyClient()', (ctx) => {
  let base: TestPrismaClient;
  let prisma: TestPrismaClient;
  let generator: ReturnType<typeof counterGenerator>;
  beforeAll(async () => {
    await createTestTables(ctx.db);
    base = await openPrisma(ctx.db);
    generator = counterGenerator(2n ** 60n);
    prisma = snowkeyClient(base, { generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL });
  });
  afterAll(async () => {
    await base?.$disconnect();
  });
  const itemIds = (name: string) => itemIdsNamed(ctx.db, name);

  test('GIVEN a refused caller id THEN the call returns a rejected promise (no throw), and nothing is written', async () => {
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = prisma.item.create({ data: { id: 2 ** 53 + 1, name: 'refused', qty: 1 } });
    }).not.toThrow();
    await expect(pending).rejects.toThrow(InvalidArgumentError);
    await expect(pending).rejects.toThrow('"Item.id" must be a bigint in 1..2^63-1');
    expect(await itemIds('refused')).toEqual([]);
  });

  test('GIVEN the array form of $transaction holding a refused create THEN it rejects with that error and no row of the array is written', async () => {
    await expect(
      prisma.$transaction([
        prisma.item.create({ data: { name: 'arr-ok', qty: 1 } }),
        prisma.item.create({ data: { id: 0n, name: 'arr-zero', qty: 1 } }),
      ]),
    ).rejects.toThrow(/^"Item.id" must be a bigint in 1..2\^63-1 .*\(received 0n\)$/);
    expect(await itemIds('arr-ok')).toEqual([]);
  });

  test('GIVEN reads, counts and raw queries THEN they pass through the wrapper unchanged', async () => {
    const item = await prisma.item.create({ data: { name: 'passed-through', qty: 4 } });
    const before = generator.issued.length;
    expect(await prisma.item.findUnique({ where: { id: item.id } })).toMatchObject({ qty: 4 });
    expect(await prisma.item.count({ where: { name: 'passed-through' } })).toBe(1);
    await prisma.item.updateMany({ where: { name: 'passed-through' }, data: { qty: 5 } });
    const rows = await prisma.$queryRaw<
      { qty: number }[]
    >`SELECT qty FROM sk_item WHERE name = ${'passed-through'}`;
    expect(rows.map((r) => Number(r.qty))).toEqual([5]);
    expect(generator.issued.length).toBe(before);
    // The same delegate and method objects on every access, not new proxies per call.
    expect(prisma.item).toBe(prisma.item);
    expect(prisma.item.create).toBe(prisma.item.create);
  });

  test('GIVEN the plain client the wrapper was made from THEN it is left as it was (no ids filled there)', async () => {
    await expect(base.item.create({ data: { name: 'plain-base', qty: 1 } })).rejects.toThrow();
    expect(await itemIds('plain-base')).toEqual([]);
  });
});
