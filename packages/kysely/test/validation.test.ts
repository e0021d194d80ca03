import { Snowflake } from '@snowkey/core';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, test } from 'vitest';
import { kyselyDialect } from '../src/dialect.js';
import { kyselySqlClient, snowkeyPlugin } from '../src/index.js';
import type { Game } from './schema.js';

/** Ids 101, 102, ... so compiled SQL can be compared exactly. */
function counting(start = 101n) {
  let next = start;
  return { nextId: () => next++ };
}

/** A Kysely that compiles PostgreSQL and never connects. */
function compiler(
  plugin = snowkeyPlugin({ generator: counting(), tables: { players: 'id', items: ['id', 'serial_no'] } }),
) {
  return new Kysely<Game>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [plugin],
  });
}

describe('snowkeyPlugin options', () => {
  test.each([
    ['no options', undefined, /"options" must be an object/],
    ['no generator', { tables: { players: 'id' } }, /"generator" must be/],
    ['a generator without nextId', { generator: {}, tables: { players: 'id' } }, /"generator" must be/],
    ['no tables', { generator: counting() }, /"tables" must be an object/],
    ['an empty tables object', { generator: counting(), tables: {} }, /with at least one table/],
    ['an empty column list', { generator: counting(), tables: { players: [] } }, /"tables\.players" must be/],
    [
      'a duplicate column',
      { generator: counting(), tables: { players: ['id', 'id'] } },
      /"tables\.players" must be/,
    ],
    [
      'a column that is not a string',
      { generator: counting(), tables: { players: 5 } },
      /"tables\.players" must be/,
    ],
  ])('GIVEN %s THEN snowkeyPlugin throws InvalidArgumentError naming it', (_label, options, message) => {
    expect(() => snowkeyPlugin(options as never)).toThrow(message);
  });
});

describe('the query the plugin compiles', () => {
  test('GIVEN rows without the id column THEN the column is appended with one bound id per row', () => {
    const q = compiler()
      .insertInto('players')
      .values([{ name: 'a' }, { name: 'b' }])
      .compile();
    expect(q.sql).toBe('insert into "players" ("name", "id") values ($1, $2), ($3, $4)');
    expect(q.parameters).toEqual(['a', 101n, 'b', 102n]);
  });

  test('GIVEN rows where only some name the id THEN the others get one in place of DEFAULT', () => {
    const q = compiler()
      .insertInto('players')
      .values([{ name: 'a' }, { name: 'b', id: 7n }])
      .compile();
    expect(q.sql).toBe('insert into "players" ("name", "id") values ($1, $2), ($3, $4)');
    expect(q.parameters).toEqual(['a', 101n, 'b', 7n]);
  });

  test('GIVEN an upsert THEN the INSERT part is filled and the conflict clause left as written', () => {
    const q = compiler()
      .insertInto('players')
      .values({ name: 'a', level: 2 })
      .onConflict((oc) => oc.column('name').doUpdateSet({ level: 3 }))
      .compile();
    expect(q.sql).toBe(
      'insert into "players" ("name", "level", "id") values ($1, $2, $3) on conflict ("name") do update set "level" = $4',
    );
    expect(q.parameters).toEqual(['a', 2, 101n, 3]);
  });

  test('GIVEN each compile THEN fresh ids are taken, since every compile is a new INSERT', () => {
    const query = compiler().insertInto('players').values({ name: 'a' });
    expect(query.compile().parameters).toEqual(['a', 101n]);
    expect(query.compile().parameters).toEqual(['a', 102n]);
  });

  test('GIVEN a refused caller id in one of many rows THEN no id is taken', () => {
    const generator = counting();
    const db = compiler(snowkeyPlugin({ generator, tables: { players: 'id' } }));
    expect(() =>
      db
        .insertInto('players')
        .values([{ name: 'a' }, { name: 'b', id: 0n }])
        .compile(),
    ).toThrow(/"players\[1\]\.id" must be a bigint in 1\.\.2\^63-1/);
    expect(generator.nextId()).toBe(101n);
  });

  test('GIVEN SELECT, UPDATE and DELETE THEN the plugin returns their trees untouched', () => {
    const db = compiler();
    for (const query of [
      db.selectFrom('players').selectAll(),
      db.updateTable('players').set({ level: 1 }),
      db.deleteFrom('players'),
    ]) {
      const node = query.toOperationNode();
      expect(
        snowkeyPlugin({ generator: counting(), tables: { players: 'id' } }).transformQuery({
          node,
          queryId: { queryId: 'q' },
        }),
      ).toBe(node);
    }
  });
});

describe('withIds', () => {
  const sk = snowkeyPlugin({ generator: new Snowflake({ workerId: 1 }), tables: { players: 'id' } });

  test('GIVEN a table not in the options THEN withIds throws naming the known tables', () => {
    expect(() => sk.withIds('items' as 'players', [{}])).toThrow(
      /"table" must be a table given in the "tables" option: "players"/,
    );
  });

  test.each([
    ['a single object', { name: 'a' }, /"rows" must be an array/],
    ['an array with a string', ['a'], /"rows\[0\]" must be a row object/],
    ['a Number id', [{ id: 42 }], /"players\[0\]\.id" must be a bigint in 1\.\.2\^63-1/],
  ])('GIVEN %s THEN withIds throws InvalidArgumentError', (_label, rows, message) => {
    expect(() => sk.withIds('players', rows as never)).toThrow(message);
  });
});

describe('dialect detection', () => {
  test('GIVEN a Kysely on the SQLite adapter THEN its dialect is sqlite', () => {
    const db = new Kysely<Game>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new SqliteIntrospector(k),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
    expect(kyselyDialect(db)).toBe('sqlite');
    expect(kyselySqlClient(db).dialect).toBe('sqlite');
  });

  test('GIVEN something that is not a Kysely THEN kyselySqlClient throws InvalidArgumentError naming "db"', () => {
    expect(() => kyselySqlClient({} as never)).toThrow(/"db" must be a Kysely instance or transaction/);
  });
});
