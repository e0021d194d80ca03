import { InvalidArgumentError, InvalidIdError } from '@snowkey/core';
import { eq, gt, sql } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { describe, expect, test } from 'vitest';
import { drizzleSqlClient, verifyBigintReads } from '../src/index.js';
import { snowflakeId as mysqlSnowflakeId } from '../src/mysql-core.js';
import { snowflakeId as pgSnowflakeId } from '../src/pg-core.js';
import { snowflakeId as sqliteSnowflakeId } from '../src/sqlite-core.js';
import { fixedIds, mysqlSchema, pgSchema, sqliteSchema } from './schema.js';

// drizzle.mock() builds SQL without a connection: these tests check what reaches the driver.
// The three dialects' builders have the same methods; the pg types stand for all of them here.
type Mock = ReturnType<typeof drizzlePg.mock>;
type Tables = ReturnType<typeof pgSchema>;
const ids = () => fixedIds(101n, 102n, 103n, 104n);
const dialects: [string, () => { db: Mock } & Tables][] = [
  ['pg', () => ({ db: drizzlePg.mock(), ...pgSchema(ids()) })],
  [
    'mysql',
    () => ({ db: drizzleMysql.mock() as unknown as Mock, ...(mysqlSchema(ids()) as unknown as Tables) }),
  ],
  [
    'sqlite',
    () => ({ db: drizzleSqlite.mock() as unknown as Mock, ...(sqliteSchema(ids()) as unknown as Tables) }),
  ],
];

/** What a synchronous call throws; fails the test when it throws nothing. */
function thrown(fn: () => unknown): InvalidArgumentError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return err as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe.each(dialects)('snowflakeId on %s', (_name, open) => {
  test('GIVEN rows without ids THEN each row gets the next generated id, bound as the driver takes it', () => {
    const { db, players } = open();
    const { params } = db
      .insert(players)
      .values([
        { name: 'a', qty: 1 },
        { name: 'b', qty: 2 },
      ])
      .toSQL();
    expect(
      params.filter((p: unknown) => typeof p !== 'number' && p !== 'a' && p !== 'b').map(String),
    ).toEqual(['101', '102']);
  });

  test('GIVEN a caller-set key THEN it is bound and no id is generated for it', () => {
    const { db, players } = open();
    const { params } = db.insert(players).values({ id: 7n, name: 'a', qty: 1 }).toSQL();
    expect(params.map(String)).toEqual(['7', 'a', '1']);
  });

  test.each([
    ['0n', 0n],
    ['a negative bigint', -5n],
    ['2^63', 2n ** 63n],
    ['a safe Number', 42],
    ['a decimal string', '123'],
  ])(
    'GIVEN a caller id that is %s THEN building the insert throws naming players.id, before any SQL runs',
    (_label, id) => {
      const { db, players } = open();
      const err = thrown(() =>
        db
          .insert(players)
          .values({ id: id as bigint, name: 'a', qty: 1 })
          .toSQL(),
      );
      expect(err.argument).toBe('players.id');
      expect(err.message).toMatch(/"players\.id" must be a bigint in 1\.\.2\^63-1/);
    },
  );

  test('GIVEN an update that sets the id or a comparison with a Number THEN the same rule refuses it', () => {
    const { db, players } = open();
    expect(thrown(() => db.update(players).set({ id: 0n }).toSQL()).argument).toBe('players.id');
    expect(
      thrown(() =>
        db
          .select()
          .from(players)
          .where(eq(players.id, 42 as never))
          .toSQL(),
      ).argument,
    ).toBe('players.id');
    // 0n is no key either, so a comparison with it is refused too: page from the start without one.
    expect(thrown(() => db.select().from(players).where(gt(players.id, 0n)).toSQL()).argument).toBe(
      'players.id',
    );
  });

  test('GIVEN an explicit null THEN Drizzle binds NULL itself (the database refuses it in a NOT NULL key) and keeps it in a nullable column', () => {
    const { db, items } = open();
    const built = db
      .insert(items)
      .values({ id: null as never, serialNo: 9n, giftCode: null })
      .toSQL();
    expect(built.params.map(String)).toEqual(['null', '9', 'null']);
  });

  test('GIVEN the id as a placeholder THEN each execution value follows the rule, and undefined is refused: Drizzle generates only at build time', () => {
    const { db, players } = open();
    const query = db
      .insert(players)
      .values({ id: sql.placeholder('id'), name: 'a', qty: 1 })
      .getSQL();
    const dialect = (db as unknown as { dialect: { sqlToQuery(q: unknown): { params: unknown[] } } }).dialect;
    const { params } = dialect.sqlToQuery(query);
    const encode = (value: unknown) =>
      (params[0] as { encoder: { mapToDriverValue(v: unknown): unknown } }).encoder.mapToDriverValue(value);
    expect(String(encode(8n))).toBe('8');
    expect(() => encode(undefined)).toThrow(
      /"players\.id" must be a bigint in 1\.\.2\^63-1: Drizzle generates an id only/,
    );
    expect(() => encode(8)).toThrow(InvalidArgumentError);
  });

  test('GIVEN a value read from the driver THEN it becomes an exact bigint, and a rounded Number is refused', () => {
    const { players } = open();
    expect(players.id.mapFromDriverValue('9223372036854775807')).toBe(2n ** 63n - 1n);
    expect(players.id.mapFromDriverValue(9223372036854775807n)).toBe(2n ** 63n - 1n);
    expect(players.id.mapFromDriverValue(42)).toBe(42n);
    expect(() => players.id.mapFromDriverValue(2 ** 63)).toThrow(InvalidIdError);
    expect(() => players.id.mapFromDriverValue(2 ** 63)).toThrow(
      /"players\.id" must be .* may already have lost precision/,
    );
  });
});

describe('snowflakeId arguments', () => {
  test.each([
    ['pg', pgSnowflakeId],
    ['mysql', mysqlSnowflakeId],
    ['sqlite', sqliteSnowflakeId],
  ])('GIVEN no generator or a bad one on %s THEN the declaration throws naming it', (_name, declare) => {
    const snowflakeId = declare as (...args: unknown[]) => unknown;
    expect(thrown(() => snowflakeId(undefined as never)).argument).toBe('generator');
    expect(thrown(() => snowflakeId('id', {} as never)).argument).toBe('generator');
    expect(thrown(() => snowflakeId(5 as never, fixedIds(1n))).argument).toBe('name');
  });

  test('GIVEN a generator function THEN it is called at the first insert and what it returns is checked then', () => {
    let calls = 0;
    const later = pgSchema(() => {
      calls++;
      return {} as never;
    });
    const db = drizzlePg.mock();
    expect(calls).toBe(0);
    expect(thrown(() => db.insert(later.players).values({ name: 'a', qty: 1 }).toSQL()).argument).toBe(
      'generator()',
    );
    expect(calls).toBe(1);
  });

  test('GIVEN a generator that yields a Number THEN the insert throws naming generator.nextId()', () => {
    const { players } = pgSchema({ nextId: () => 5 as never });
    expect(
      thrown(() => drizzlePg.mock().insert(players).values({ name: 'a', qty: 1 }).toSQL()).argument,
    ).toBe('generator.nextId()');
  });
});

describe('database-level helpers', () => {
  test.each([
    ['null', null],
    ['a plain object', {}],
    ['a pg Pool instead of the Drizzle database', { query: () => undefined }],
  ])('GIVEN %s THEN drizzleSqlClient and verifyBigintReads refuse it naming db', async (_label, db) => {
    expect(thrown(() => drizzleSqlClient(db as never)).argument).toBe('db');
    await expect(verifyBigintReads(db as never)).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      argument: 'db',
    });
  });
});
