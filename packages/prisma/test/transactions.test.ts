import { describeEachDialect } from '@snowkey/test-harness';
import { expect, test } from 'vitest';
import { ATTACH_MODES, useExtendedPrisma } from './helpers/extended-prisma.js';
import { itemIdsLike } from './helpers/item-rows.js';

for (const mode of ATTACH_MODES) {
  describeEachDialect(`@snowkey/prisma in $transaction (${mode})`, (ctx) => {
    const t = useExtendedPrisma(ctx, mode);
    const itemIds = (prefix: string) => itemIdsLike(ctx.db, prefix);

    test('GIVEN the array form with create and createMany THEN every row gets a generator id', async () => {
      const first = t.generator.peek();
      const [one, many] = await t.prisma.$transaction([
        t.prisma.item.create({ data: { name: 'arr-a', qty: 1 } }),
        t.prisma.item.createMany({
          data: [
            { name: 'arr-b', qty: 2 },
            { name: 'arr-c', qty: 3 },
          ],
        }),
      ]);
      expect(one.id).toBe(first);
      expect(many.count).toBe(2);
      expect(await itemIds('arr-')).toEqual([
        ['arr-a', String(first)],
        ['arr-b', String(first + 1n)],
        ['arr-c', String(first + 2n)],
      ]);
    });

    test('GIVEN the array form where the second create fails THEN nothing is kept', async () => {
      await t.prisma.item.create({ data: { name: 'arr-dup', qty: 1 } });
      await expect(
        t.prisma.$transaction([
          t.prisma.item.create({ data: { name: 'arr-fresh', qty: 1 } }),
          t.prisma.item.create({ data: { name: 'arr-dup', qty: 2 } }),
        ]),
      ).rejects.toMatchObject({ code: 'P2002' });
      expect(await itemIds('arr-fresh')).toEqual([]);
    });

    test('GIVEN the interactive form with a nested create THEN parent and children get generator ids', async () => {
      const first = t.generator.peek();
      const parentId = await t.prisma.$transaction(async (tx) => {
        const parent = await tx.parent.create({
          data: { name: 'itx-parent', children: { create: [{ label: 'a' }, { label: 'b' }] } },
        });
        await tx.item.create({ data: { name: 'itx-item', qty: 1 } });
        return parent.id;
      });
      expect(parentId).toBe(first);
      const children = await ctx.db.query<{ id: string; parent_id: string }>(
        'SELECT id, parent_id FROM sk_child WHERE parent_id = ? ORDER BY label',
        [parentId],
      );
      expect(children).toEqual([
        { id: String(first + 1n), parent_id: String(first) },
        { id: String(first + 2n), parent_id: String(first) },
      ]);
      expect(await itemIds('itx-item')).toEqual([['itx-item', String(first + 3n)]]);
    });

    test('GIVEN the interactive form that throws after a create THEN the row is rolled back', async () => {
      await expect(
        t.prisma.$transaction(async (tx) => {
          await tx.item.create({ data: { name: 'itx-rolled-back', qty: 1 } });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await itemIds('itx-rolled-back')).toEqual([]);
    });
  });
}
