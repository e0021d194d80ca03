import { expect, expectTypeOf, test } from 'vitest';
import { describeEachDialect } from '../../../test/helpers/databases.js';
import { useExtendedPrisma } from './helpers/extended-prisma.js';

const MAX_I64 = 2n ** 63n - 1n;

describeEachDialect('@snowkey/prisma top-level creates', (ctx) => {
  const t = useExtendedPrisma(ctx);
  const itemRow = async (name: string) =>
    ctx.db.query<{ id: string; qty: number }>('SELECT id, qty FROM sk_item WHERE name = ?', [name]);

  test('GIVEN create without an id THEN the row is written with the generator id and it is returned as bigint', async () => {
    const expected = t.generator.peek();
    const item = await t.prisma.item.create({ data: { name: 'plain', qty: 1 } });
    expectTypeOf(item.id).toEqualTypeOf<bigint>();
    expect(item.id).toBe(expected);
    expect(await itemRow('plain')).toEqual([{ id: String(expected), qty: 1 }]);
  });

  test('GIVEN create with an id THEN that id is written and the generator is not asked', async () => {
    const before = t.generator.issued.length;
    const item = await t.prisma.item.create({ data: { id: 42n, name: 'explicit', qty: 1 } });
    expect(item.id).toBe(42n);
    expect(await itemRow('explicit')).toEqual([{ id: '42', qty: 1 }]);
    expect(t.generator.issued.length).toBe(before);
  });

  test('GIVEN one input object passed to two creates THEN each row gets its own id and the input is unchanged', async () => {
    const data = { name: 'reused' };
    const a = await t.prisma.parent.create({ data });
    const b = await t.prisma.parent.create({ data });
    expect(data).toEqual({ name: 'reused' });
    expect(a.id).not.toBe(b.id);
    const rows = await ctx.db.query<{ id: string }>('SELECT id FROM sk_parent WHERE name = ? ORDER BY id', [
      'reused',
    ]);
    expect(rows.map((r) => r.id)).toEqual([String(a.id), String(b.id)]);
  });

  test('GIVEN createMany with one caller id among three rows THEN the other two get generator ids in order', async () => {
    const first = t.generator.peek();
    const result = await t.prisma.item.createMany({
      data: [
        { name: 'many-a', qty: 1 },
        { id: 7n, name: 'many-b', qty: 2 },
        { name: 'many-c', qty: 3 },
      ],
    });
    expect(result.count).toBe(3);
    const rows = await ctx.db.query<{ id: string; name: string }>(
      "SELECT id, name FROM sk_item WHERE name LIKE 'many-%' ORDER BY name",
    );
    expect(rows).toEqual([
      { id: String(first), name: 'many-a' },
      { id: '7', name: 'many-b' },
      { id: String(first + 1n), name: 'many-c' },
    ]);
  });

  test.skipIf(ctx.dialect === 'mysql')(
    'GIVEN createManyAndReturn THEN the returned ids are the ids written (not on MySQL: Prisma lacks it there)',
    async () => {
      const rows = await t.prisma.item.createManyAndReturn({
        data: [
          { name: 'ret-a', qty: 1 },
          { name: 'ret-b', qty: 2 },
        ],
      });
      const raw = await ctx.db.query<{ id: string; name: string }>(
        "SELECT id, name FROM sk_item WHERE name LIKE 'ret-%' ORDER BY name",
      );
      expect(raw.map((r) => [BigInt(r.id), r.name])).toEqual(
        rows.map((r) => [r.id, r.name]).sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      );
      expect(rows.every((r) => t.generator.issued.includes(r.id))).toBe(true);
    },
  );

  test('GIVEN upsert of a missing row THEN its create branch gets the generator id; GIVEN it again THEN the id stays', async () => {
    const expected = t.generator.peek();
    const created = await t.prisma.item.upsert({
      where: { name: 'upserted' },
      create: { name: 'upserted', qty: 1 },
      update: { qty: 2 },
    });
    expect(created.id).toBe(expected);
    const issued = t.generator.issued.length;
    const updated = await t.prisma.item.upsert({
      where: { name: 'upserted' },
      create: { name: 'upserted', qty: 1 },
      update: { qty: 2 },
    });
    expect(updated.id).toBe(expected);
    expect(await itemRow('upserted')).toEqual([{ id: String(expected), qty: 2 }]);
    // The unused create branch still drew an id: ids are cheap and gaps are harmless.
    expect(t.generator.issued.length).toBe(issued + 1);
  });

  test('GIVEN the client without the extension THEN a create fails and writes no row', async () => {
    await expect(t.base.item.create({ data: { name: 'no-extension', qty: 1 } })).rejects.toMatchObject({
      code: 'P2011',
    });
    expect(await itemRow('no-extension')).toEqual([]);
  });

  test.each([
    ['2^63-1', MAX_I64],
    ['2^53+1', 2n ** 53n + 1n],
  ])('GIVEN the id %s THEN it is written and read back exactly', async (_label, id) => {
    const name = `edge-${id}`;
    await t.prisma.item.create({ data: { id, name, qty: 1 } });
    expect(await itemRow(name)).toEqual([{ id: String(id), qty: 1 }]);
    const read = await t.prisma.item.findUnique({ where: { id } });
    expect(read?.id).toBe(id);
  });
});
