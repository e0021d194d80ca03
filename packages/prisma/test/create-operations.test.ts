import { describeEachDialect } from '@snowkey/test-harness';
import { expect, expectTypeOf, test } from 'vitest';
import { snowkey } from '../src/index.js';
import type { PrismaClient as MysqlPrismaClient } from './generated/mysql/client/client.js';
import type { Prisma } from './generated/postgres/client/client.js';
import { counterGenerator } from './helpers/counter-generator.js';
import { ATTACH_MODES, TEST_MODELS, useExtendedPrisma } from './helpers/extended-prisma.js';

const MAX_I64 = 2n ** 63n - 1n;

for (const mode of ATTACH_MODES) {
  describeEachDialect(`@snowkey/prisma top-level creates (${mode})`, (ctx) => {
    const t = useExtendedPrisma(ctx, mode);
    /** Items `<prefix>-a`, `-b` (with the caller's id) and `-c`. */
    const threeItems = (prefix: string, callerId: bigint) => [
      { name: `${prefix}-a`, qty: 1 },
      { id: callerId, name: `${prefix}-b`, qty: 2 },
      { name: `${prefix}-c`, qty: 3 },
    ];
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

    test('GIVEN a Number id past 2^53 THEN create throws naming Item.id before any SQL, and no row is written', async () => {
      // 2^53 + 1 as a Number is already 2^53: Prisma's types allow it, the extension refuses it.
      const rounded = 2 ** 53 + 1;
      await expect(t.prisma.item.create({ data: { id: rounded, name: 'rounded', qty: 1 } })).rejects.toThrow(
        '"Item.id" must be a bigint in 1..2^63-1',
      );
      expect(await itemRow('rounded')).toEqual([]);
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

    test('GIVEN one nested input and one createMany row list passed twice THEN every row gets its own id and the inputs are unchanged', async () => {
      // The filler writes into the copy of the arguments Prisma hands each query extension; this
      // fails if Prisma ever passed the caller's own objects instead.
      const data = { name: 'reused-nested', children: { create: [{ label: 'reused-child' }] } };
      const a = await t.prisma.parent.create({ data });
      const b = await t.prisma.parent.create({ data });
      expect(data).toEqual({ name: 'reused-nested', children: { create: [{ label: 'reused-child' }] } });
      const children = await ctx.db.query<{ id: string; parent_id: string }>(
        'SELECT id, parent_id FROM sk_child WHERE label = ? ORDER BY id',
        ['reused-child'],
      );
      expect(children.map((c) => c.parent_id)).toEqual([String(a.id), String(b.id)]);
      expect(new Set(children.map((c) => c.id)).size).toBe(2);

      const rows = [{ name: 'reused-many' }];
      await t.prisma.parent.createMany({ data: rows });
      await t.prisma.parent.createMany({ data: rows });
      expect(rows).toEqual([{ name: 'reused-many' }]);
      const parents = await ctx.db.query<{ id: string }>('SELECT id FROM sk_parent WHERE name = ?', [
        'reused-many',
      ]);
      expect(parents).toHaveLength(2);
      expect(parents[0]!.id).not.toBe(parents[1]!.id);
    });

    test('GIVEN createMany with one caller id among three rows THEN the other two get generator ids in order', async () => {
      const first = t.generator.peek();
      const result = await t.prisma.item.createMany({ data: threeItems('many', 7n) });
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

    if (ctx.dialect === 'mysql') {
      test('GIVEN MySQL THEN createManyAndReturn is absent from the client types and Prisma itself rejects it, with or without the extension, writing nothing', async () => {
        // The MySQL client's own types: neither Prisma nor the extension offers the method there.
        const mysqlBase = t.base as unknown as MysqlPrismaClient;
        const mysqlExtended = mysqlBase.$extends(
          snowkey<Prisma.ModelName>({ generator: counterGenerator(1n), models: TEST_MODELS }),
        );
        expectTypeOf(mysqlBase.item).not.toHaveProperty('createManyAndReturn');
        expectTypeOf(mysqlExtended.item).not.toHaveProperty('createManyAndReturn');

        const data = [{ name: 'ret-mysql', qty: 1 }];
        const refusals = await Promise.all(
          [t.base, t.prisma].map((client) => client.item.createManyAndReturn({ data }).catch((err) => err)),
        );
        for (const err of refusals) {
          expect(err).toMatchObject({ name: 'PrismaClientUnknownRequestError' });
          expect((err as Error).message).toContain(
            "Operation 'createManyAndReturn' for model 'Item' does not match any query.",
          );
        }
        expect(await itemRow('ret-mysql')).toEqual([]);
      });
    } else {
      test('GIVEN createManyAndReturn with one caller id THEN the others get generator ids in input order, returned as written', async () => {
        const first = t.generator.peek();
        const rows = await t.prisma.item.createManyAndReturn({
          data: threeItems('ret', 9n),
          select: { id: true, name: true },
        });
        const written = [
          { id: first, name: 'ret-a' },
          { id: 9n, name: 'ret-b' },
          { id: first + 1n, name: 'ret-c' },
        ];
        expect([...rows].sort((x, y) => x.name.localeCompare(y.name))).toEqual(written);
        const raw = await ctx.db.query<{ id: string; name: string }>(
          "SELECT id, name FROM sk_item WHERE name LIKE 'ret-%' ORDER BY name",
        );
        expect(raw).toEqual(written.map((r) => ({ id: String(r.id), name: r.name })));
      });
    }

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

    test("GIVEN a create Prisma refuses THEN its error points at the caller's line, not at snowkey's code", async () => {
      // Prisma names the first stack frame outside its own code and its model proxies; snowkey's
      // method must not be taken for the caller.
      const refused = t.prisma.item.create({ data: { name: 'mistyped', qty: 'one' as unknown as number } });
      const error = await refused.then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/invocation in\n.*create-operations\.test\.ts:\d+:\d+/);
      expect(error?.message).not.toMatch(/packages\/prisma\/(src|dist)\//);
      expect(await itemRow('mistyped')).toEqual([]);
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
}
