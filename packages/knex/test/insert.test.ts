import { manualClock, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import type { Knex } from 'knex';
import { beforeAll, expect, test } from 'vitest';
import { type SnowkeyKnex, snowkeyKnex } from '../src/index.js';
import { useKnexTables } from './knex-tables.js';
import { openKnex } from './open-knex.js';
import { fixedIds, ODD_COLUMN, ODD_TABLE, quoteIdent } from './schema.js';

const ABOVE_2_53 = 2n ** 53n + 1n;
const MAX_I64 = 2n ** 63n - 1n;
/** A unique-key violation, in the words of PostgreSQL, MySQL/MariaDB and SQLite. */
const DUPLICATE = /duplicate key value|Duplicate entry|UNIQUE constraint failed/;

const tables = { players: 'id', items: ['id', 'serial_no'], [ODD_TABLE]: ODD_COLUMN } as const;

describeEachDialect('knex insert', (ctx) => {
  const db = useKnexTables(ctx);
  const { players } = db;
  let knex: Knex;
  let sk: SnowkeyKnex<typeof tables>;

  beforeAll(() => {
    knex = db.knex();
    // The clock moves 1 ms per read, so ids never wait on the wall clock.
    const generator = new Snowflake({ workerId: 3, clock: manualClock(Date.UTC(2026, 0, 1), 1).now });
    sk = snowkeyKnex(knex, { generator, tables });
  });

  test('GIVEN one row without an id THEN it is stored under a fresh id and resolves to that row', async () => {
    const input = { name: 'Aria', qty: 1 };
    const [aria] = await sk.insert('players', input);
    expect(typeof aria!.id).toBe('bigint');
    expect(await players()).toEqual([{ id: aria!.id.toString(), name: 'Aria', qty: 1 }]);
    expect(input).toEqual({ name: 'Aria', qty: 1 });
  });

  test('GIVEN many rows THEN one insert stores each under the id it resolves to, increasing in input order', async () => {
    const rows = await sk.insert('players', [
      { name: 'a', qty: 1 },
      { name: 'b', qty: 2 },
      { name: 'c', qty: 3 },
    ]);
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(3);
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    expect(await players()).toEqual(rows.map((r) => ({ id: r.id.toString(), name: r.name, qty: r.qty })));
  });

  test('GIVEN rows with and without ids THEN a set id is kept and only missing ones are assigned', async () => {
    const [kept, assigned] = await sk.insert('players', [
      { id: 42n, name: 'kept', qty: 1 },
      { name: 'assigned', qty: 2 },
    ]);
    expect(kept!.id).toBe(42n);
    expect(assigned!.id).not.toBe(42n);
    expect(await players()).toEqual([
      { id: '42', name: 'kept', qty: 1 },
      { id: assigned!.id.toString(), name: 'assigned', qty: 2 },
    ]);
  });

  test('GIVEN rows of six shapes in one insert, twice (columns in other orders, ids set, undefined and null, a class instance) THEN each row is stored with its own values and the rows passed are unchanged', async () => {
    class Player {
      name = 'instance';
      qty = 6;
    }
    const batch = (round: number) => [
      { name: `a${round}`, qty: 1 },
      { qty: 2, name: `b${round}` },
      { id: BigInt(100 + round), name: `c${round}`, qty: 3 },
      { name: `d${round}`, qty: 4, id: undefined },
      { id: null, qty: 5, name: `e${round}` },
      Object.assign(new Player(), { name: `f${round}` }),
    ];
    const stored: { id: string; name: string; qty: number }[] = [];
    for (const round of [1, 2]) {
      const input = batch(round);
      const before = input.map((row) => ({ ...row }));
      const rows = await sk.insert('players', input);
      expect(input).toEqual(before);
      expect(rows[2]!.id).toBe(BigInt(100 + round));
      expect(rows.map((r) => Object.keys(r))).toEqual([
        ['name', 'qty', 'id'],
        ['qty', 'name', 'id'],
        ['id', 'name', 'qty'],
        ['name', 'qty', 'id'],
        ['id', 'qty', 'name'],
        ['name', 'qty', 'id'],
      ]);
      stored.push(...rows.map((r) => ({ id: r.id.toString(), name: r.name, qty: r.qty })));
    }
    const byId = (a: { id: string }, b: { id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
    expect((await players()).sort(byId)).toEqual(stored.sort(byId));
  });

  test('GIVEN a row with a getter and its own id after rows without ids, twice THEN the getter is read once per insert and the row is stored with its value', async () => {
    let reads = 0;
    for (const round of [1, 2]) {
      const withGetter = {
        id: BigInt(200 + round),
        name: `g${round}`,
        get qty() {
          reads++;
          return 7;
        },
      };
      await sk.insert('players', [{ name: `a${round}`, qty: 1 }, { name: `b${round}`, qty: 2 }, withGetter]);
      expect(reads).toBe(round);
    }
    const stored = await ctx.db.query('SELECT id, name, qty FROM players WHERE id IN (201, 202) ORDER BY id');
    expect(stored.map((r) => ({ id: String(r.id), name: r.name, qty: Number(r.qty) }))).toEqual([
      { id: '201', name: 'g1', qty: 7 },
      { id: '202', name: 'g2', qty: 7 },
    ]);
  });

  test('GIVEN a table with two snowflake columns THEN both are filled with distinct ids', async () => {
    const [item] = await sk.insert('items', { label: 'sword' });
    expect(item!.id).not.toBe(item!.serial_no);
    expect(await ctx.db.query('SELECT id, serial_no, label FROM items')).toEqual([
      { id: item!.id.toString(), serial_no: item!.serial_no.toString(), label: 'sword' },
    ]);
  });

  test('GIVEN an insert not yet awaited THEN its ids are known and nothing is written until it is', async () => {
    const pending = sk.insert('players', { name: 'later', qty: 1 });
    const id = pending.rows[0]!.id;
    expect(await players()).toEqual([]);
    const [row] = await pending;
    expect(row!.id).toBe(id);
    expect(await players()).toEqual([{ id: id.toString(), name: 'later', qty: 1 }]);
  });

  test.each([
    ['2^53+1', ABOVE_2_53],
    ['2^63-1', MAX_I64],
  ])('GIVEN the generator yields %s THEN it is stored and read back exactly', async (_label, edge) => {
    const edgeSk = snowkeyKnex(knex, { generator: fixedIds(edge), tables });
    const [row] = await edgeSk.insert('players', { name: 'edge', qty: 1 });
    expect(row!.id).toBe(edge);
    expect(await players()).toEqual([{ id: edge.toString(), name: 'edge', qty: 1 }]);
    const read = await knex('players').where({ id: edge }).first('id');
    expect(read).toEqual({ id: edge });
  });

  if (ctx.dialect === 'mysql') {
    test('GIVEN the mariadb client THEN an insert and an upsert store 2^63-1 and resolve to the stored id', async () => {
      const maria = openKnex(ctx.db, { client: 'mariadb' });
      try {
        const mariaSk = snowkeyKnex(maria, { generator: fixedIds(MAX_I64, ABOVE_2_53), tables });
        const [inserted] = await mariaSk.insert('players', { name: 'maria', qty: 1 });
        const [merged] = await mariaSk
          .insert('players', { name: 'maria', qty: 2 })
          .onConflict('name')
          .merge();
        expect([inserted!.id, merged!.id]).toEqual([MAX_I64, MAX_I64]);
        expect(await players()).toEqual([{ id: MAX_I64.toString(), name: 'maria', qty: 2 }]);
      } finally {
        await maria.destroy();
      }
    });
  }

  test('GIVEN 25 rows and chunks of 10 THEN batchInsert stores all and resolves to them in input order', async () => {
    const input = Array.from({ length: 25 }, (_, i) => ({ name: `p${i}`, qty: i }));
    const rows = await sk.batchInsert('players', input, 10);
    expect(rows.map((r) => r.name)).toEqual(input.map((r) => r.name));
    const stored = new Map((await players()).map((r) => [r.name, r.id]));
    expect(stored.size).toBe(25);
    for (const r of rows) expect(stored.get(r.name)).toBe(r.id.toString());
  });

  test('GIVEN 1200 rows and the default chunk size THEN batchInsert stores them all', async () => {
    const rows = await sk.batchInsert(
      'players',
      Array.from({ length: 1200 }, (_, i) => ({ name: `p${i}`, qty: i })),
    );
    expect(new Set(rows.map((r) => r.id)).size).toBe(1200);
    expect(await ctx.db.query('SELECT COUNT(*) AS n FROM players')).toEqual([{ n: '1200' }]);
  });

  test("GIVEN a duplicate key THEN the insert rejects with the database's own error", async () => {
    await sk.insert('players', { name: 'Aria', qty: 1 });
    await expect(sk.insert('players', { name: 'Aria', qty: 2 })).rejects.toThrow(DUPLICATE);
  });

  test('GIVEN a duplicate in the last chunk THEN batchInsert rejects and no chunk is kept', async () => {
    const input = [
      ...Array.from({ length: 12 }, (_, i) => ({ name: `p${i}`, qty: i })),
      { name: 'p0', qty: 99 },
    ];
    await expect(sk.batchInsert('players', input, 5)).rejects.toThrow(DUPLICATE);
    expect(await players()).toEqual([]);
  });

  test('GIVEN an existing row THEN insert().onConflict().merge() updates it and resolves to its stored id', async () => {
    const [aria] = await sk.insert('players', { name: 'Aria', qty: 1 });
    const [merged, bo] = await sk
      .insert('players', [
        { name: 'Aria', qty: 5 },
        { name: 'Bo', qty: 2 },
      ])
      .onConflict('name')
      .merge();
    expect(merged).toEqual({ id: aria!.id, name: 'Aria', qty: 5 });
    expect(await players()).toEqual([
      { id: aria!.id.toString(), name: 'Aria', qty: 5 },
      { id: bo!.id.toString(), name: 'Bo', qty: 2 },
    ]);
  });

  test('GIVEN merge(["qty"]) on an existing row THEN only qty changes and the id is the stored one', async () => {
    const [aria] = await sk.insert('players', { name: 'Aria', qty: 1 });
    const [merged] = await sk.insert('players', { name: 'Aria', qty: 7 }).onConflict(['name']).merge(['qty']);
    expect(merged!.id).toBe(aria!.id);
    expect(await players()).toEqual([{ id: aria!.id.toString(), name: 'Aria', qty: 7 }]);
  });

  test('GIVEN an existing row THEN onConflict().ignore() leaves it and resolves to its stored id', async () => {
    const [aria] = await sk.insert('players', { name: 'Aria', qty: 1 });
    const [ignored] = await sk.insert('players', { name: 'Aria', qty: 9 }).onConflict('name').ignore();
    expect(ignored!.id).toBe(aria!.id);
    expect(await players()).toEqual([{ id: aria!.id.toString(), name: 'Aria', qty: 1 }]);
  });

  test('GIVEN sk.transaction whose work succeeds THEN every insert in it is committed', async () => {
    const [player, item] = await sk.transaction(async (tx) => {
      const [p] = await tx.insert('players', { name: 'Aria', qty: 1 });
      const [i] = await tx.insert('items', { label: 'sword' });
      return [p!, i!] as const;
    });
    expect(await players()).toEqual([{ id: player.id.toString(), name: 'Aria', qty: 1 }]);
    expect(await ctx.db.query('SELECT id FROM items')).toEqual([{ id: item.id.toString() }]);
  });

  test('GIVEN sk.transaction whose second insert fails THEN the first is rolled back', async () => {
    await expect(
      sk.transaction(async (tx) => {
        await tx.insert('players', { name: 'Aria', qty: 1 });
        await tx.batchInsert('players', [{ name: 'Bo', qty: 2 }]);
        await tx.insert('players', { name: 'Aria', qty: 3 });
      }),
    ).rejects.toThrow(DUPLICATE);
    expect(await players()).toEqual([]);
  });

  test('GIVEN a Knex transaction that rolls back THEN inserts, batches and upserts made with .transacting(trx) are gone', async () => {
    const trx = await knex.transaction();
    try {
      await sk.insert('players', { name: 'a', qty: 1 }).transacting(trx);
      // As on a Knex builder, .transacting sets the query it is called on.
      const batch = sk.batchInsert('players', [{ name: 'b', qty: 2 }]);
      batch.transacting(trx);
      await batch;
      const [merged] = await sk
        .insert('players', { name: 'a', qty: 5 })
        .onConflict('name')
        .merge()
        .transacting(trx);
      const inside = await trx('players').where({ name: 'a' }).first('id', 'qty');
      expect([inside.id, Number(inside.qty)]).toEqual([merged!.id, 5]);
    } finally {
      await trx.rollback();
    }
    expect(await players()).toEqual([]);
  });

  test('GIVEN a table and column named like an injection THEN they are quoted as identifiers and the row lands there', async () => {
    const [row] = await sk.insert(ODD_TABLE, { note: 'odd' });
    const q = (name: string) => quoteIdent(ctx.dialect, name);
    const id = row![ODD_COLUMN];
    expect(await ctx.db.query(`SELECT ${q(ODD_COLUMN)} AS id, note FROM ${q(ODD_TABLE)}`)).toEqual([
      { id: id.toString(), note: 'odd' },
    ]);
    expect(await ctx.db.query('SELECT COUNT(*) AS n FROM players')).toEqual([{ n: '0' }]);
  });
});
