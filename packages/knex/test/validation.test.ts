import { InvalidArgumentError } from '@snowkey/core';
import knex from 'knex';
import { describe, expect, test } from 'vitest';
import { knexSqlClient, snowkeyKnex } from '../src/index.js';
import { fixedIds } from './schema.js';

// No connection is configured, so Knex never connects: these tests check the helper, not a database.
const offline = (client: string) => knex({ client, useNullAsDefault: true });
const generator = { nextId: () => 1n };

function argumentOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return (err as InvalidArgumentError).argument;
  }
  throw new Error('expected an InvalidArgumentError');
}

describe('snowkeyKnex options', () => {
  test.each([
    ['null options', null, 'options'],
    ['no generator', { tables: { t: 'id' } }, 'generator'],
    ['a generator without nextId', { generator: {}, tables: { t: 'id' } }, 'generator'],
    ['no tables', { generator }, 'tables'],
    ['tables as an array', { generator, tables: ['t'] }, 'tables'],
    ['no table at all', { generator, tables: {} }, 'tables'],
    ['an empty column name', { generator, tables: { t: '' } }, 'tables.t'],
    ['an empty column list', { generator, tables: { t: [] } }, 'tables.t'],
    ['a repeated column', { generator, tables: { t: ['id', 'id'] } }, 'tables.t'],
    ['a column that is not a string', { generator, tables: { t: 5 } }, 'tables.t'],
  ])('GIVEN %s THEN snowkeyKnex throws an InvalidArgumentError naming "%s"', (_label, options, argument) => {
    expect(argumentOf(() => snowkeyKnex(offline('pg'), options as never))).toBe(argument);
  });

  // sqlite3 (node-sqlite3) binds a bigint as NULL, so it would store rows without their ids.
  test.each(['sqlite3', 'mysql', 'mssql', 'oracledb', 'cockroachdb'])(
    'GIVEN a %s client THEN snowkeyKnex refuses it, naming the supported clients',
    (client) => {
      expect(() => snowkeyKnex(offline(client), { generator, tables: { t: 'id' } })).toThrow(
        /"knex" must be a Knex instance or transaction whose client is one of pg, mysql2, mariadb, better-sqlite3 \(received "/,
      );
    },
  );

  test('GIVEN something that is not a Knex instance THEN snowkeyKnex refuses it', () => {
    expect(argumentOf(() => snowkeyKnex({} as never, { generator, tables: { t: 'id' } }))).toBe('knex');
  });
});

describe('snowkeyKnex rows', () => {
  const sk = snowkeyKnex(offline('pg'), { generator, tables: { players: 'id' } });

  test.each([
    ['a string id', { id: '12' }],
    ['a Number id', { id: 12 }],
    ['a negative id', { id: -1n }],
    ['an id past 2^63-1', { id: 2n ** 63n }],
  ])('GIVEN %s THEN insert throws naming rows[0].id, before any SQL', (_label, row) => {
    expect(argumentOf(() => sk.insert('players', row as never))).toBe('rows[0].id');
  });

  test.each([
    ['null', null, 'rows'],
    ['a number', 5, 'rows'],
    ['an array inside the rows', [{}, []], 'rows[1]'],
  ])('GIVEN %s as rows THEN insert throws naming %s', (_label, rows, argument) => {
    expect(argumentOf(() => sk.insert('players', rows as never))).toBe(argument);
  });

  test('GIVEN no rows THEN insert and batchInsert resolve to [] without touching the database', async () => {
    // `sk` has no connection configured: any query would fail.
    expect(await sk.insert('players', [])).toEqual([]);
    expect(await sk.batchInsert('players', [])).toEqual([]);
  });

  test('GIVEN a table not in the options THEN insert throws naming the known tables', () => {
    expect(() => sk.insert('plyers' as never, {})).toThrow(
      '"table" must be a table given in the "tables" option: "players" (received "plyers")',
    );
  });

  test.each([0, -1, 1.5, Number.NaN])(
    'GIVEN chunkSize %s THEN batchInsert throws naming chunkSize',
    (size) => {
      expect(argumentOf(() => sk.batchInsert('players', [{}], size))).toBe('chunkSize');
    },
  );

  test('GIVEN SQLite THEN more than 500 rows in one insert, or a chunk above 500, is refused before any SQL', () => {
    const lite = snowkeyKnex(offline('better-sqlite3'), { generator, tables: { players: 'id' } });
    const rows = Array.from({ length: 501 }, () => ({}));
    expect(argumentOf(() => lite.insert('players', rows))).toBe('rows');
    expect(argumentOf(() => lite.batchInsert('players', rows, 501))).toBe('chunkSize');
    expect(lite.insert('players', rows.slice(1)).rows).toHaveLength(500);
  });

  test('GIVEN onConflict with no columns or merge with a number THEN each throws naming itself', () => {
    expect(argumentOf(() => sk.insert('players', {}).onConflict([]))).toBe('onConflict(columns)');
    expect(
      argumentOf(() =>
        sk
          .insert('players', {})
          .onConflict('name')
          .merge(5 as never),
      ),
    ).toBe('merge(updates)');
  });

  test('GIVEN a generator that yields a Number THEN insert throws naming generator.nextId()', () => {
    const bad = snowkeyKnex(offline('pg'), {
      generator: { nextId: () => 5 as never },
      tables: { players: 'id' },
    });
    expect(argumentOf(() => bad.insert('players', {}))).toBe('generator.nextId()');
    expect(argumentOf(() => bad.nextId())).toBe('generator.nextId()');
  });

  test.each([
    ['too few ids', [100n]],
    ['too many ids', [100n, 101n, 102n]],
  ])(
    'GIVEN a generator whose nextIds returns %s THEN a two-row insert throws naming generator.nextIds(2)',
    (_label, ids) => {
      const short = snowkeyKnex(offline('pg'), {
        generator: { nextId: () => 1n, nextIds: () => ids },
        tables: { players: 'id' },
      });
      expect(argumentOf(() => short.insert('players', [{}, {}]))).toBe('generator.nextIds(2)');
    },
  );

  test('GIVEN a class instance with an inherited id and a row with an own "__proto__" key THEN each copy holds the own properties only, as { ...row }, and takes a fresh id', () => {
    class Entity {
      name = 'e';
    }
    Object.defineProperty(Entity.prototype, 'id', { value: 99n, enumerable: true });
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "name": "p"}') as Record<string, unknown>;
    const sk5 = snowkeyKnex(offline('pg'), { generator: fixedIds(5n, 6n), tables: { players: 'id' } });
    const [entity, row] = sk5.fill('players', [new Entity(), parsed]) as Record<string, unknown>[];
    expect(Object.getPrototypeOf(entity)).toBe(Object.prototype);
    expect(Object.entries(entity!)).toEqual([
      ['name', 'e'],
      ['id', 5n],
    ]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.entries(row!)).toEqual([
      ['__proto__', { x: 1 }],
      ['name', 'p'],
      ['id', 6n],
    ]);
    expect(Object.hasOwn(parsed, 'id')).toBe(false);
  });

  test('GIVEN a generator with nextIds THEN a multi-row insert takes its ids in one call', () => {
    const calls: number[] = [];
    const batching = {
      nextId: () => {
        throw new Error('nextId must not be called');
      },
      nextIds: (n: number) => {
        calls.push(n);
        return Array.from({ length: n }, (_, i) => BigInt(100 + i));
      },
    };
    const skb = snowkeyKnex(offline('pg'), { generator: batching, tables: { players: 'id' } });
    expect(skb.insert('players', [{}, { id: 7n }, {}]).rows.map((r) => r.id)).toEqual([100n, 7n, 101n]);
    expect(calls).toEqual([2]);
  });

  test('GIVEN sk.transacting with something other than a transaction THEN it throws naming trx', () => {
    expect(argumentOf(() => sk.transacting(offline('pg') as never))).toBe('trx');
  });
});

describe('SQL the helper builds', () => {
  const ODD = 'odd "tbl`';
  const COL = 'we"ird `col';

  test.each([
    ['pg', `insert into "odd ""tbl\`" ("note", "we""ird \`col") values (?, ?)`],
    ['mysql2', 'insert into `odd "tbl``` (`note`, `we"ird ``col`) values (?, ?)'],
    ['better-sqlite3', 'insert into `odd "tbl``` (`note`, `we"ird ``col`) values (?, ?)'],
  ])(
    'GIVEN odd names on %s THEN they are quoted as identifiers and the id is a bound bigint',
    (client, sql) => {
      const sk = snowkeyKnex(offline(client), { generator: fixedIds(9n), tables: { [ODD]: COL } });
      const built = sk.insert(ODD, { note: 'x' }).toSQL();
      expect(built.sql).toBe(sql);
      expect(built.bindings).toEqual(['x', 9n]);
    },
  );

  test.each([
    [
      'pg',
      'insert into "players" ("id", "name", "qty") values (?, ?, ?) on conflict ("name") do update set "qty" = excluded."qty"',
    ],
    [
      'mysql2',
      'insert into `players` (`id`, `name`, `qty`) values (?, ?, ?) on duplicate key update `qty` = values(`qty`)',
    ],
    [
      'better-sqlite3',
      'insert into `players` (`id`, `name`, `qty`) values (?, ?, ?) on conflict (`name`) do update set `qty` = excluded.`qty`',
    ],
  ])(
    'GIVEN merge() without columns on %s THEN the id and conflict columns are never overwritten',
    (client, sql) => {
      const sk = snowkeyKnex(offline(client), { generator, tables: { players: 'id' } });
      expect(sk.insert('players', { name: 'a', qty: 1 }).onConflict('name').merge().toSQL().sql).toBe(sql);
    },
  );
});

describe('knexSqlClient', () => {
  test.each([
    ['pg', 'postgres'],
    ['mysql2', 'mysql'],
    ['mariadb', 'mysql'],
    ['better-sqlite3', 'sqlite'],
  ])('GIVEN a %s Knex THEN the client reports the %s dialect', (client, dialect) => {
    expect(knexSqlClient(offline(client)).dialect).toBe(dialect);
  });

  test.each(['sqlite3', 'mysql', 'mssql'])('GIVEN a %s Knex THEN knexSqlClient refuses it', (client) => {
    expect(argumentOf(() => knexSqlClient(offline(client)))).toBe('knex');
  });
});
