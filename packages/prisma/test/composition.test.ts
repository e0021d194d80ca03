import { Prisma } from '@prisma/client/extension';
import { describeEachDialect } from '@snowkey/test-harness';
import { expect, test } from 'vitest';
import { snowkey } from '../src/index.js';
import { counterGenerator } from './helpers/counter-generator.js';
import {
  ATTACH_MODES,
  TEST_DATA_MODEL,
  TEST_MODELS,
  useExtendedPrisma,
  withPassThroughQuery,
} from './helpers/extended-prisma.js';
import { itemIdsLike, itemIds as itemIdsNamed } from './helpers/item-rows.js';

// How snowkey composes with the extensions a client gets before and after it.
for (const mode of ATTACH_MODES) {
  describeEachDialect(`@snowkey/prisma with other extensions (${mode})`, (ctx) => {
    const t = useExtendedPrisma(ctx, mode);
    const itemIds = (name: string) => itemIdsNamed(ctx.db, name);

    test('GIVEN a query extension added after snowkey THEN it sees the filled id, and the row has it', async () => {
      const seen: unknown[] = [];
      const extended = t.prisma.$extends({
        query: {
          item: {
            create: ({ args, query }) => {
              seen.push(args.data.id);
              return query(args);
            },
          },
        },
      });
      const expected = t.generator.peek();
      const item = await extended.item.create({ data: { name: 'later-query', qty: 1 } });
      expect(item.id).toBe(expected);
      expect(seen).toEqual([expected]);
      expect(await itemIds('later-query')).toEqual([String(expected)]);
    });

    test('GIVEN a query extension added after snowkey that adds a row to a write THEN that row gets no id: the write is refused on the missing key and writes nothing', async () => {
      const extended = t.prisma.$extends({
        query: {
          item: {
            createMany: ({ args, query }) => {
              const rows = Array.isArray(args.data) ? args.data : [args.data];
              return query({ ...args, data: [...rows, { name: 'after-added', qty: 9 }] });
            },
          },
        },
      });
      const issued = t.generator.issued.length;
      await expect(extended.item.createMany({ data: [{ name: 'after-own', qty: 1 }] })).rejects.toThrow(
        /constraint/i,
      );
      // The caller's row was filled, the added one not; neither was written.
      expect(t.generator.issued.length).toBe(issued + 1);
      expect(await itemIdsLike(ctx.db, 'after-')).toEqual([]);
    });

    test('GIVEN writes to a model whose writes can hold no snowflake id THEN they are written as given', async () => {
      const base = 100 * (ATTACH_MODES.indexOf(mode) + 1);
      await t.prisma.note.create({ data: { id: base, text: `note-${mode}` } });
      await t.prisma.note.createMany({ data: [{ id: base + 1, text: `notes-${mode}` }] });
      const rows = await ctx.db.query<{ id: unknown; text: string }>(
        'SELECT id, text FROM sk_note WHERE id >= ? AND id < ? ORDER BY id',
        [base, base + 100],
      );
      expect(rows.map((r) => [Number(r.id), r.text])).toEqual([
        [base, `note-${mode}`],
        [base + 1, `notes-${mode}`],
      ]);
    });

    test('GIVEN client and model methods added after snowkey that write through Prisma.getExtensionContext(this) THEN their rows get ids', async () => {
      const extended = t.prisma.$extends({
        client: {
          $addItem(name: string) {
            return Prisma.getExtensionContext(this).item.create({ data: { name, qty: 1 } });
          },
        },
        model: {
          item: {
            add(name: string) {
              return Prisma.getExtensionContext(this).create({ data: { name, qty: 2 } });
            },
          },
        },
      });
      const first = t.generator.peek();
      await extended.$addItem('client-method');
      await extended.item.add('model-method');
      expect(await itemIds('client-method')).toEqual([String(first)]);
      expect(await itemIds('model-method')).toEqual([String(first + 1n)]);
    });

    test('GIVEN $parent of a client extended after snowkey THEN writes through it get ids', async () => {
      const extended = t.prisma.$extends({ name: 'later', result: {} });
      const parent = Prisma.getExtensionContext(extended).$parent as typeof t.prisma;
      const expected = t.generator.peek();
      await parent.item.create({ data: { name: 'via-parent', qty: 1 } });
      expect(await itemIds('via-parent')).toEqual([String(expected)]);
    });
  });
}

describeEachDialect('@snowkey/prisma $extends(snowkey()) behind other query extensions', (ctx) => {
  const t = useExtendedPrisma(ctx, 'extension');
  const itemIds = (prefix: string) => itemIdsLike(ctx.db, prefix);

  test('GIVEN a query extension made before snowkey that adds a row to createMany THEN snowkey fills that row too', async () => {
    const generator = counterGenerator(2n ** 61n);
    const prisma = t.base
      .$extends({
        query: {
          item: {
            createMany: ({ args, query }) => {
              const rows = Array.isArray(args.data) ? args.data : [args.data];
              return query({ ...args, data: [...rows, { name: 'before-added', qty: 9 }] });
            },
          },
        },
      })
      .$extends(snowkey({ generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL }));
    await prisma.item.createMany({ data: [{ name: 'before-own', qty: 1 }] });
    expect(await itemIds('before-')).toEqual([
      ['before-added', String(2n ** 61n + 1n)],
      ['before-own', String(2n ** 61n)],
    ]);
  });

  test('GIVEN a plain client, or one whose query extensions touch no write, THEN the ids are drawn when the call is made, in front of Prisma', async () => {
    const readsOnly = t.base.$extends({
      query: { $allModels: { findMany: ({ args, query }) => query(args) } },
    });
    for (const [client, name] of [
      [t.base, 'front-plain'],
      [readsOnly, 'front-reads-only'],
    ] as const) {
      const generator = counterGenerator(2n ** 62n + BigInt(name.length));
      const prisma = client.$extends(snowkey({ generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL }));
      const pending = prisma.item.create({ data: { name, qty: 1 } });
      expect(generator.issued).toHaveLength(1);
      await pending;
      expect(await itemIds(name)).toEqual([[name, String(generator.issued[0])]]);
    }
  });

  test('GIVEN a client with a query extension on writes THEN snowkey runs as a query extension after it: the id is drawn when the query runs', async () => {
    const generator = counterGenerator(2n ** 62n + 100n);
    const prisma = withPassThroughQuery(t.base).$extends(
      snowkey({ generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL }),
    );
    const pending = prisma.item.create({ data: { name: 'behind-query', qty: 1 } });
    expect(generator.issued).toHaveLength(0);
    await pending;
    expect(await itemIds('behind-query')).toEqual([['behind-query', String(2n ** 62n + 100n)]]);
  });

  test('GIVEN a client whose only query extension on writes is on a model whose writes hold no snowflake id THEN snowkey fills in front of Prisma, and that extension still runs', async () => {
    const seen: string[] = [];
    const notesWatched = t.base.$extends({
      query: {
        note: {
          create: ({ args, query }) => {
            seen.push(args.data.text);
            return query(args);
          },
        },
      },
    });
    const generator = counterGenerator(2n ** 62n + 200n);
    const prisma = notesWatched.$extends(
      snowkey({ generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL }),
    );
    const pending = prisma.item.create({ data: { name: 'front-notes-watched', qty: 1 } });
    expect(generator.issued).toHaveLength(1);
    await pending;
    await prisma.note.create({ data: { id: 900, text: 'watched' } });
    expect(seen).toEqual(['watched']);
    expect(await itemIds('front-notes-watched')).toEqual([['front-notes-watched', String(2n ** 62n + 200n)]]);
  });

  test('GIVEN snowkey behind a query extension THEN the writes of a model whose writes hold no snowflake id run no callback of its', async () => {
    const behind = withPassThroughQuery(t.base);
    const prisma = behind.$extends(
      snowkey({ generator: counterGenerator(1n), models: TEST_MODELS, dataModel: TEST_DATA_MODEL }),
    );
    // Prisma's own list of the callbacks a call runs (what snowkey reads to choose its way).
    type Listed = { _extensions: { getAllQueryCallbacks(delegate: string, op: string): unknown[] } };
    const callbacks = (client: unknown, delegate: string) =>
      (client as Listed)._extensions.getAllQueryCallbacks(delegate, 'create').length;
    expect(callbacks(prisma, 'note')).toBe(callbacks(behind, 'note'));
    expect(callbacks(prisma, 'item')).toBe(callbacks(behind, 'item') + 1);
  });

  test('GIVEN either way of attaching THEN $parent of the extended client is the client it extended', () => {
    const generator = counterGenerator(1n);
    const behind = withPassThroughQuery(t.base);
    for (const client of [t.base, behind]) {
      const prisma = client.$extends(snowkey({ generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL }));
      expect(Prisma.getExtensionContext(prisma).$parent).toBe(client);
    }
  });
});
