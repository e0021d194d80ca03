import { InvalidArgumentError, manualClock, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import type { Knex } from 'knex';
import { beforeAll, expect, test } from 'vitest';
import { type SnowkeyKnex, snowkeyKnex } from '../src/index.js';
import { useKnexTables } from './knex-tables.js';

const tables = { players: 'id', items: ['id', 'serial_no'] } as const;

describeEachDialect('knex fillInPlace', (ctx) => {
  const db = useKnexTables(ctx);
  const { players } = db;
  let knex: Knex;
  let sk: SnowkeyKnex<typeof tables>;

  beforeAll(() => {
    knex = db.knex();
    const generator = new Snowflake({ workerId: 4, clock: manualClock(Date.UTC(2026, 0, 1), 1).now });
    sk = snowkeyKnex(knex, { generator, tables, fillInPlace: true });
  });

  test('GIVEN rows without ids THEN the ids are written into the objects passed, which are the ones stored and resolved', async () => {
    const input = [
      { name: 'a', qty: 1 },
      { name: 'b', qty: 2 },
    ];
    const pending = sk.insert('players', input);
    expect(pending.rows[0]).toBe(input[0]);
    const rows = await pending;
    expect(rows).not.toBe(input);
    expect(rows[0]).toBe(input[0]);
    expect(rows[1]).toBe(input[1]);
    expect(typeof (input[0] as { id?: bigint }).id).toBe('bigint');
    expect(await players()).toEqual([
      { id: String((input[0] as { id?: bigint }).id), name: 'a', qty: 1 },
      { id: String((input[1] as { id?: bigint }).id), name: 'b', qty: 2 },
    ]);
  });

  test('GIVEN a row with its id set and one with null THEN the set id is kept and null is replaced in place', async () => {
    const kept = { id: 42n, name: 'kept', qty: 1 };
    const blank = { id: null, name: 'blank', qty: 2 };
    await sk.batchInsert('players', [kept, blank], 1);
    expect(kept.id).toBe(42n);
    expect(typeof blank.id).toBe('bigint');
    expect(await players()).toEqual([
      { id: '42', name: 'kept', qty: 1 },
      { id: String(blank.id), name: 'blank', qty: 2 },
    ]);
  });

  test('GIVEN rows without ids, then one with its id set, one with null and one without THEN in one insert each missing id is written into its object and the set id is kept', async () => {
    const input: { id?: bigint | null; name: string; qty: number }[] = [
      { name: 'a', qty: 1 },
      { name: 'b', qty: 2 },
      { id: 42n, name: 'kept', qty: 3 },
      { id: null, name: 'blank', qty: 4 },
      { name: 'e', qty: 5 },
    ];
    const rows = await sk.insert('players', input);
    expect(rows).toEqual(input);
    expect(input[2]!.id).toBe(42n);
    const ids = input.map((row) => row.id);
    for (const id of ids) expect(typeof id).toBe('bigint');
    expect(new Set(ids).size).toBe(5);
    const stored = await players();
    expect(stored.sort((x, y) => x.qty - y.qty)).toEqual(
      input.map((row) => ({ id: String(row.id), name: row.name, qty: row.qty })),
    );
  });

  test('GIVEN a frozen row after a writable one THEN it is refused by index, nothing is written and no row keeps an id', async () => {
    const first = { name: 'a', qty: 1 };
    const frozen = Object.freeze({ name: 'b', qty: 2 });
    const error = (() => {
      try {
        sk.insert('players', [first, frozen]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument: 'rows[1]', received: frozen });
    expect(first).toEqual({ name: 'a', qty: 1 });
    expect(Object.keys(first)).toEqual(['name', 'qty']);
    expect(await players()).toEqual([]);
  });

  test.each([
    ['with id: undefined', true],
    ['without an id', false],
  ])(
    'GIVEN one object %s twice in a call THEN it is refused naming the second place, and the object is left as it was',
    async (_shape, ownId) => {
      const row: { id?: bigint | undefined; name: string; qty: number } = ownId
        ? { id: undefined, name: 'x', qty: 1 }
        : { name: 'x', qty: 1 };
      const other = { name: 'y', qty: 2 };
      expect(() => sk.insert('players', [row, other, row])).toThrow(
        expect.objectContaining({ argument: 'rows[2]' }),
      );
      expect(row).toEqual(ownId ? { id: undefined, name: 'x', qty: 1 } : { name: 'x', qty: 1 });
      expect(Object.hasOwn(row, 'id')).toBe(ownId);
      expect(Object.keys(other)).toEqual(['name', 'qty']);
      expect(await players()).toEqual([]);
    },
  );

  test('GIVEN a row whose id setter does not store it, and one whose setter stores another value THEN each is refused by index and the rows before it lose their ids', async () => {
    const ignoring = { name: 'b', qty: 2 };
    Object.defineProperty(ignoring, 'id', {
      set() {},
      get: () => undefined,
      enumerable: true,
      configurable: true,
    });
    let stored: unknown;
    const altering = { name: 'c', qty: 3 };
    Object.defineProperty(altering, 'id', {
      set(v: bigint | undefined) {
        stored = v === undefined ? v : v + 1n;
      },
      get: () => stored,
      enumerable: true,
      configurable: true,
    });
    for (const [bad, index] of [
      [ignoring, 1],
      [altering, 2],
    ] as const) {
      const first = { name: 'a', qty: 1 };
      const rows = index === 1 ? [first, bad] : [first, { name: 'x', qty: 9 }, bad];
      expect(() => sk.insert('players', rows)).toThrow(
        expect.objectContaining({ argument: `rows[${index}]`, received: bad }),
      );
      expect(Object.keys(first)).toEqual(['name', 'qty']);
      expect(Object.keys(rows[1]!)).toEqual(index === 1 ? ['name', 'qty', 'id'] : ['name', 'qty']);
    }
    expect(await players()).toEqual([]);
  });

  test('GIVEN a table with two snowflake columns and a row that loses the second THEN both columns are undone', async () => {
    const row = { label: 'sword' };
    Object.defineProperty(row, 'serial_no', { value: undefined, writable: false, enumerable: true });
    expect(() => sk.insert('items', row)).toThrow(
      expect.objectContaining({ argument: 'rows[0]', received: row }),
    );
    expect(Object.keys(row)).toEqual(['label', 'serial_no']);
    expect((row as { id?: unknown }).id).toBeUndefined();
    expect(await ctx.db.query('SELECT id FROM items')).toEqual([]);
  });

  test('GIVEN an upsert that merges into an existing row THEN the object passed holds the id the database kept', async () => {
    const [aria] = await sk.insert('players', { name: 'Aria', qty: 1 });
    const again: { id?: bigint; name: string; qty: number } = { name: 'Aria', qty: 5 };
    const [merged] = await sk.insert('players', again).onConflict('name').merge();
    expect(merged).toBe(again);
    expect(again.id).toBe(aria!.id);
    expect(await players()).toEqual([{ id: String(aria!.id), name: 'Aria', qty: 5 }]);
  });

  test('GIVEN fillInPlace that is not a boolean THEN snowkeyKnex refuses it by name', () => {
    const generator = new Snowflake({ workerId: 5 });
    expect(() => snowkeyKnex(knex, { generator, tables, fillInPlace: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({ argument: 'fillInPlace', received: 'yes' }),
    );
  });
});
