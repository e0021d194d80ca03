import 'reflect-metadata';
import { Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { type DataSource, In } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { attachSnowflakes } from '../src/index.js';
import { newDataSource } from './support/data-source.js';
import { Guild, gameEntities, Player } from './support/game-entities.js';
import { type InsertPath, insertPaths } from './support/insert-paths.js';
import { invoiceNumbers, PurchaseOrder } from './support/purchase-order.js';
import { recording } from './support/recording-generator.js';
import { type TransactionScope, transactionScopes } from './support/transaction-scopes.js';

// Every insert path is proven outside a transaction. A transaction changes only the manager the
// path runs on, and TypeORM reaches the subscriber in two ways whatever the path: save() through
// its subject executor, everything else through InsertQueryBuilder.execute(). So each kind of
// transaction is proven with one path of each way, for the commit and for the rollback.
const [outside, ...transactional] = transactionScopes as [TransactionScope, ...TransactionScope[]];
const throughSave = insertPaths.find(([path]) => path === 'repository.save([entities])')!;
const throughQueryBuilder = insertPaths.find(([path]) =>
  path.startsWith('createQueryBuilder().insert().into(Entity)'),
)!;
const inTransactions = transactional.flatMap((scope) =>
  [throughSave, throughQueryBuilder].map(
    ([path, insert]) => [`${path} ${scope.name}`, insert, scope] as const,
  ),
);

class Rollback extends Error {}

describeEachDialect('typeorm insert paths', (ctx) => {
  let dataSource: DataSource;
  const generator = recording(new Snowflake({ workerId: 7 }));
  const orders = recording(new Snowflake({ workerId: 5 }));
  let counter = 0;
  const names = (prefix: string, n: number) => Array.from({ length: n }, () => `${prefix}${++counter}`);
  const inList = (n: number) => Array.from({ length: n }, () => '?').join(', ');

  beforeAll(async () => {
    dataSource = newDataSource(ctx.db, [...gameEntities, PurchaseOrder], { synchronize: true });
    await dataSource.initialize();
    attachSnowflakes(dataSource, {
      generator,
      generators: { serials: new Snowflake({ workerId: 8 }), orders },
    });
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });
  beforeEach(() => {
    for (const g of [generator, orders, invoiceNumbers]) g.issued.length = 0;
  });

  const freshIds = (insert: InsertPath, scope: TransactionScope) => async () => {
    const players = names('p', 3);
    const { objects, returned } = await scope.run(dataSource, (m) =>
      insert(
        m,
        Player,
        players.map((name) => ({ name })),
      ),
    );

    const ids = objects.map((o) => o.id);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(typeof id).toBe('bigint');
    expect(returned).toEqual(ids);
    // The table has no default: a stored row's id can only come from this generator, in call order.
    expect(ids).toEqual(generator.issued);
    for (let i = 1; i < ids.length; i++) expect((ids[i] as bigint) > (ids[i - 1] as bigint)).toBe(true);

    const rows = await ctx.db.query(
      `SELECT id, name FROM player WHERE name IN (${inList(3)}) ORDER BY id`,
      players,
    );
    expect(rows).toEqual(ids.map((id, i) => ({ id: String(id), name: players[i] })));
  };
  const freshIdsTitle =
    'GIVEN players without ids THEN each gets a fresh id before the INSERT, on the object and in what the call returns, equal to the stored row';

  describe.each(insertPaths.map(([path, insert]) => [`${path} ${outside.name}`, insert] as const))(
    '%s',
    (_title, insert) => {
      const scope = outside;
      test(freshIdsTitle, freshIds(insert, scope));

      test('GIVEN players whose ids the caller set (2^53+1 and up) THEN those ids are stored and none is generated', async () => {
        const rows = names('explicit', 3).map((name, i) => ({ id: 2n ** 53n + BigInt(counter + i), name }));
        const { objects, returned } = await scope.run(dataSource, (m) => insert(m, Player, rows));

        expect(objects.map((o) => o.id)).toEqual(rows.map((r) => r.id));
        expect(returned).toEqual(rows.map((r) => r.id));
        expect(generator.issued).toEqual([]);
        const stored = await ctx.db.query(
          `SELECT id, name FROM player WHERE name IN (${inList(3)}) ORDER BY id`,
          rows.map((r) => r.name),
        );
        expect(stored).toEqual(rows.map((r) => ({ id: String(r.id), name: r.name })));
      });

      test('GIVEN orders THEN the key, the order number and the invoice number each come from their own generator; an explicit order number is kept, a null one filled, a null invoice number (nullable) kept', async () => {
        const [a, b, c] = names('order', 3) as [string, string, string];
        const explicitOrderNo = 2n ** 62n + BigInt(counter);
        const { objects, returned } = await scope.run(dataSource, (m) =>
          insert(m, PurchaseOrder, [
            { note: a, orderNo: null },
            { note: b, orderNo: explicitOrderNo },
            { note: c, invoiceNo: null },
          ]),
        );

        const ids = objects.map((o) => o.id);
        expect(ids).toEqual(generator.issued);
        expect(returned).toEqual(ids);
        expect(orders.issued).toHaveLength(2);
        expect(invoiceNumbers.issued).toHaveLength(2);
        const expected = [
          { id: ids[0], order_no: orders.issued[0], invoice_no: invoiceNumbers.issued[0], note: a },
          { id: ids[1], order_no: explicitOrderNo, invoice_no: invoiceNumbers.issued[1], note: b },
          { id: ids[2], order_no: orders.issued[1], invoice_no: null, note: c },
        ];
        expect(objects.map((o) => [o.orderNo, o.invoiceNo])).toEqual(
          expected.map((e) => [e.order_no, e.invoice_no]),
        );
        const stored = await ctx.db.query(
          `SELECT id, order_no, invoice_no, note FROM purchase_order WHERE note IN (${inList(3)}) ORDER BY note`,
          [a, b, c],
        );
        expect(stored).toEqual(
          expected.map((e) => ({
            id: String(e.id),
            order_no: String(e.order_no),
            invoice_no: e.invoice_no === null ? null : String(e.invoice_no),
            note: e.note,
          })),
        );
      });
    },
  );

  describe.each(inTransactions)('%s', (_title, insert, scope) => {
    test(freshIdsTitle, freshIds(insert, scope));

    test('GIVEN the transaction rolls back after the insert THEN ids were assigned and no row is stored', async () => {
      const players = names('rolled', 2);
      await expect(
        scope.run(dataSource, async (m) => {
          await insert(
            m,
            Player,
            players.map((name) => ({ name })),
          );
          // Inside the transaction the rows are there; the raw read below runs after the rollback.
          expect(await m.countBy(Player, { name: In(players) })).toBe(2);
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);

      expect(generator.issued).toHaveLength(2);
      expect(await ctx.db.query(`SELECT id FROM player WHERE name IN (${inList(2)})`, players)).toEqual([]);
    });
  });

  describe.each(transactionScopes)('a cascade through the parent $name', (scope) => {
    test('GIVEN a guild saved with new players and their items THEN every row gets a generated id and each foreign key points at its parent', async () => {
      const [aria, bram] = names('cascade', 2) as [string, string];
      const guild = await scope.run(dataSource, (m) =>
        m.save(
          m.create(Guild, {
            name: 'cascade',
            players: [
              { name: aria, items: [{ label: 'shield' }, { label: 'sword' }] },
              { name: bram, items: [{ label: 'bow' }] },
            ],
          }),
        ),
      );
      const players = guild.players!;
      const items = players.flatMap((p) => p.items!);

      const generated = [guild.id, ...players.map((p) => p.id), ...items.map((it) => it.id)];
      expect(new Set(generated).size).toBe(6);
      expect(new Set(generator.issued)).toEqual(new Set(generated));
      expect(
        await ctx.db.query('SELECT id, guild_id FROM player WHERE guild_id = ? ORDER BY name', [guild.id]),
      ).toEqual(players.map((p) => ({ id: String(p.id), guild_id: String(guild.id) })));
      expect(
        await ctx.db.query(
          `SELECT id, owner_id, label FROM item WHERE owner_id IN (${inList(2)}) ORDER BY label`,
          [players[0]!.id, players[1]!.id],
        ),
      ).toEqual(
        players
          .flatMap((p) =>
            p.items!.map((it) => ({ id: String(it.id), owner_id: String(p.id), label: it.label })),
          )
          .sort((x, y) => x.label.localeCompare(y.label)),
      );
    });
  });
});
