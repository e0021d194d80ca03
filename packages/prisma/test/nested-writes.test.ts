import { describeEachDialect } from '@snowkey/test-harness';
import { expect, test } from 'vitest';
import { ATTACH_MODES, useExtendedPrisma } from './helpers/extended-prisma.js';

type Row = Record<string, unknown>;

for (const mode of ATTACH_MODES) {
  describeEachDialect(`@snowkey/prisma nested writes (${mode})`, (ctx) => {
    const t = useExtendedPrisma(ctx, mode);
    const rows = (sql: string, params: unknown[] = []) => ctx.db.query<Row>(sql, params);
    const children = (parentId: bigint) =>
      rows('SELECT id, parent_id, label FROM sk_child WHERE parent_id = ? ORDER BY label', [parentId]);
    const s = (id: bigint) => String(id);
    /** A parent with one child, both created through the extension. */
    const parentWithChild = async (name: string) => {
      const parent = await t.prisma.parent.create({
        data: { name, children: { create: { label: name } } },
        include: { children: true },
      });
      return { parentId: parent.id, childId: parent.children[0]!.id };
    };

    test('GIVEN create with to-many create (array) THEN the parent and each child get ids in order', async () => {
      const first = t.generator.peek();
      const parent = await t.prisma.parent.create({
        data: { name: 'to-many', children: { create: [{ label: 'a' }, { label: 'b' }] } },
      });
      expect(parent.id).toBe(first);
      expect(await children(first)).toEqual([
        { id: s(first + 1n), parent_id: s(first), label: 'a' },
        { id: s(first + 2n), parent_id: s(first), label: 'b' },
      ]);
    });

    test('GIVEN create with to-many createMany and a caller id THEN that id is kept and the other row gets one', async () => {
      const first = t.generator.peek();
      await t.prisma.parent.create({
        data: {
          name: 'create-many',
          children: { createMany: { data: [{ label: 'a' }, { id: 5n, label: 'b' }] } },
        },
      });
      expect(await children(first)).toEqual([
        { id: s(first + 1n), parent_id: s(first), label: 'a' },
        { id: '5', parent_id: s(first), label: 'b' },
      ]);
    });

    test('GIVEN create with a to-one create on either side THEN both rows get ids, the row inserted first the smaller', async () => {
      const first = t.generator.peek();
      await t.prisma.parent.create({ data: { name: 'with-profile', profile: { create: { bio: 'hi' } } } });
      expect(await rows('SELECT id, parent_id FROM sk_profile WHERE bio = ?', ['hi'])).toEqual([
        { id: s(first + 1n), parent_id: s(first) },
      ]);
      const next = t.generator.peek();
      const child = await t.prisma.child.create({
        data: { label: 'owner-side', parent: { create: { name: 'born' } } },
      });
      // Prisma inserts the parent first (the child's row points at it), so the parent gets the first id.
      expect(await rows('SELECT id FROM sk_parent WHERE name = ?', ['born'])).toEqual([{ id: s(next) }]);
      expect(child.id).toBe(next + 1n);
    });

    /** Ids by SQL, parent first, in the order Prisma inserted them; they must be increasing. */
    const idsOfFamily = async (parentName: string) => {
      const [parent] = await rows('SELECT id FROM sk_parent WHERE name = ?', [parentName]);
      const [child] = await rows('SELECT id, parent_id FROM sk_child WHERE parent_id = ?', [parent!.id]);
      const toys = await rows('SELECT id, serial, label FROM sk_toy WHERE child_id = ? ORDER BY label', [
        child!.id,
      ]);
      return {
        labels: toys.map((toy) => toy.label),
        ids: [parent!.id, child!.id, ...toys.flatMap((toy) => [toy.id, toy.serial])].map((v) =>
          BigInt(v as string),
        ),
      };
    };
    const increasing = (ids: bigint[]) => ids.every((id, i) => i === 0 || ids[i - 1]! < id);

    test('GIVEN a create from the bottom of Parent > Child > Toy THEN the parent, the child and the toy get increasing ids, by SQL', async () => {
      await t.prisma.toy.create({
        data: {
          label: 'bottom-up',
          child: { create: { label: 'middle', parent: { create: { name: 'top-1' } } } },
        },
      });
      const family = await idsOfFamily('top-1');
      expect(family.labels).toEqual(['bottom-up']);
      expect(family.ids).toHaveLength(4);
      expect(increasing(family.ids)).toBe(true);
    });

    test('GIVEN a create from the middle with its parent and its toys THEN the parent id is below the child id, below the toys ids in array order, by SQL', async () => {
      await t.prisma.child.create({
        data: {
          label: 'middle-out',
          parent: { create: { name: 'top-2' } },
          toys: { create: [{ label: 'toy-a' }, { label: 'toy-b' }] },
        },
      });
      const family = await idsOfFamily('top-2');
      expect(family.labels).toEqual(['toy-a', 'toy-b']);
      expect(family.ids).toHaveLength(6);
      expect(increasing(family.ids)).toBe(true);
    });

    test('GIVEN three levels with two snowflake fields at the bottom THEN every field is filled', async () => {
      const first = t.generator.peek();
      await t.prisma.parent.create({
        data: {
          name: 'deep',
          children: { create: { label: 'c', toys: { create: [{ label: 'x' }, { label: 'y' }] } } },
        },
      });
      expect(
        await rows('SELECT id, serial, child_id, label FROM sk_toy WHERE child_id = ? ORDER BY label', [
          first + 1n,
        ]),
      ).toEqual([
        { id: s(first + 2n), serial: s(first + 3n), child_id: s(first + 1n), label: 'x' },
        { id: s(first + 4n), serial: s(first + 5n), child_id: s(first + 1n), label: 'y' },
      ]);
    });

    /** Each nested form two relations down (Parent > Child > Toy); resolves to where the toy's ids must be. */
    const twoDown: [string, (label: string) => Promise<{ childId: bigint; toyId: bigint }>][] = [
      [
        'createMany under a nested create',
        async (label) => {
          const first = t.generator.peek();
          await t.prisma.parent.create({
            data: {
              name: label,
              children: { create: { label, toys: { createMany: { data: [{ label }] } } } },
            },
          });
          return { childId: first + 1n, toyId: first + 2n };
        },
      ],
      [
        'connectOrCreate under a nested create',
        async (label) => {
          const first = t.generator.peek();
          await t.prisma.parent.create({
            data: {
              name: label,
              children: {
                create: { label, toys: { connectOrCreate: { where: { id: 1n }, create: { label } } } },
              },
            },
          });
          return { childId: first + 1n, toyId: first + 2n };
        },
      ],
      [
        'upsert under a nested update',
        async (label) => {
          const { parentId, childId } = await parentWithChild(label);
          const first = t.generator.peek();
          await t.prisma.parent.update({
            where: { id: parentId },
            data: {
              children: {
                update: {
                  where: { id: childId },
                  data: { toys: { upsert: { where: { id: 1n }, create: { label }, update: {} } } },
                },
              },
            },
          });
          return { childId, toyId: first };
        },
      ],
    ];
    test.each(twoDown)(
      'GIVEN %s two relations down THEN the new row gets both its ids',
      async (form, write) => {
        const label = `two-down ${form}`.slice(0, 40);
        const { childId, toyId } = await write(label);
        expect(await rows('SELECT id, serial, child_id FROM sk_toy WHERE label = ?', [label])).toEqual([
          { id: s(toyId), serial: s(toyId + 1n), child_id: s(childId) },
        ]);
      },
    );

    test('GIVEN connectOrCreate to-many with one existing and one new row THEN only the new row gets an id', async () => {
      const owner = await t.prisma.parent.create({ data: { name: 'coc-owner' } });
      const existing = await t.prisma.child.create({ data: { label: 'old', parentId: owner.id } });
      const first = t.generator.peek();
      await t.prisma.parent.create({
        data: {
          name: 'coc',
          children: {
            connectOrCreate: [
              { where: { id: existing.id }, create: { label: 'unused' } },
              { where: { id: 1n }, create: { label: 'new' } },
            ],
          },
        },
      });
      expect(await children(first)).toEqual([
        { id: s(first + 2n), parent_id: s(first), label: 'new' },
        { id: s(existing.id), parent_id: s(first), label: 'old' },
      ]);
    });

    test('GIVEN connectOrCreate to-one of a missing parent THEN the parent is created first, with the smaller id', async () => {
      const first = t.generator.peek();
      await t.prisma.profile.create({
        data: {
          bio: 'coc-one',
          parent: { connectOrCreate: { where: { id: 2n }, create: { name: 'coc-parent' } } },
        },
      });
      expect(await rows('SELECT id, parent_id FROM sk_profile WHERE bio = ?', ['coc-one'])).toEqual([
        { id: s(first + 1n), parent_id: s(first) },
      ]);
    });

    test('GIVEN update with nested upsert (to-many and to-one) THEN the created rows get ids', async () => {
      const parent = await t.prisma.parent.create({ data: { name: 'ups' } });
      const first = t.generator.peek();
      await t.prisma.parent.update({
        where: { id: parent.id },
        data: {
          children: {
            upsert: [{ where: { id: 3n }, create: { label: 'ups-child' }, update: { label: 'no' } }],
          },
          profile: { upsert: { create: { bio: 'ups-profile' }, update: { bio: 'no' } } },
        },
      });
      expect(await children(parent.id)).toEqual([
        { id: s(first), parent_id: s(parent.id), label: 'ups-child' },
      ]);
      expect(await rows('SELECT id FROM sk_profile WHERE parent_id = ?', [parent.id])).toEqual([
        { id: s(first + 1n) },
      ]);
    });

    test('GIVEN update of a child (to-many and to-one wrapper forms) with creates below THEN those rows get ids', async () => {
      const { parentId, childId } = await parentWithChild('upd');
      const first = t.generator.peek();
      await t.prisma.parent.update({
        where: { id: parentId },
        data: {
          children: { update: { where: { id: childId }, data: { toys: { create: { label: 'upd-toy' } } } } },
        },
      });
      await t.prisma.child.update({
        where: { id: childId },
        data: { parent: { update: { data: { profile: { create: { bio: 'upd-profile' } } } } } },
      });
      expect(await rows('SELECT id, serial FROM sk_toy WHERE child_id = ?', [childId])).toEqual([
        { id: s(first), serial: s(first + 1n) },
      ]);
      expect(await rows('SELECT id FROM sk_profile WHERE parent_id = ?', [parentId])).toEqual([
        { id: s(first + 2n) },
      ]);
    });

    test('GIVEN top-level upsert whose create branch nests children THEN all of them get ids', async () => {
      const first = t.generator.peek();
      await t.prisma.parent.upsert({
        where: { id: 4n },
        create: { name: 'ups-top', children: { create: [{ label: 'a' }] } },
        update: {},
      });
      expect(await children(first)).toEqual([{ id: s(first + 1n), parent_id: s(first), label: 'a' }]);
    });

    test('GIVEN a model without snowflake fields THEN its nested creates are still filled', async () => {
      const first = t.generator.peek();
      const shelf = await t.prisma.shelf.create({
        data: { id: 1, name: 'shelf', items: { create: [{ label: 's1' }] } },
      });
      expect(await rows('SELECT id, shelf_id FROM sk_stock WHERE label = ?', ['s1'])).toEqual([
        { id: s(first), shelf_id: shelf.id },
      ]);
    });
  });
}
