import { Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import pg from 'pg';
import { Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { attachSnowflakes, IdPrecisionError, SnowflakeConfigError } from '../src/index.js';
import { createTables, defineModels } from './models.js';
import { openSequelize } from './open-sequelize.js';

const generator = new Snowflake({ workerId: 1 });
const EDGES = [2n ** 53n + 1n, 2n ** 63n - 1n];

describeEachDialect('sequelize BIGINT precision', (ctx) => {
  const dialects = ctx.dialect === 'mysql' ? (['mysql', 'mariadb'] as const) : (['mysql'] as const);
  beforeAll(() => createTables(ctx.db));

  for (const mysqlDialect of dialects) {
    const label = ctx.dialect === 'mysql' ? ` (Sequelize dialect ${mysqlDialect})` : '';
    test(`GIVEN ids at 2^53+1 and 2^63-1${label} THEN they are written and read back exactly, raw and through the model`, async () => {
      const sequelize = openSequelize(ctx.db, { mysqlDialect });
      try {
        const { Player } = defineModels(sequelize);
        attachSnowflakes(sequelize, { generator });
        await Player.destroy({ where: {} });
        await Player.bulkCreate(EDGES.map((id, i) => ({ id, name: `edge${i}` })));
        await Player.create({ id: EDGES[1]! - 1n, name: 'below' });
        expect(await ctx.db.query('SELECT id FROM players ORDER BY id')).toEqual(
          [EDGES[0]!, EDGES[1]! - 1n, EDGES[1]!].map((id) => ({ id: String(id) })),
        );
        for (const id of EDGES) expect((await Player.findByPk(id))?.id).toBe(id);
        const all = await Player.findAll({ order: [['id', 'ASC']] });
        expect(all.map((p) => p.id)).toEqual([EDGES[0], EDGES[1]! - 1n, EDGES[1]]);
      } finally {
        await sequelize.close();
      }
    });
  }

  if (ctx.dialect === 'mysql') {
    test.each([
      ['mysql', { supportBigNumbers: false }, /supportBigNumbers: false/],
      ['mariadb', { bigIntAsNumber: true }, /bigIntAsNumber: true/],
      ['mysql', { typeCast: () => null }, /typeCast/],
    ] as const)(
      'GIVEN the %s dialect with %o THEN attachSnowflakes refuses it naming the option',
      async (mysqlDialect, dialectOptions, message) => {
        const sequelize = openSequelize(ctx.db, { mysqlDialect, dialectOptions });
        try {
          expect(() => attachSnowflakes(sequelize, { generator })).toThrow(SnowflakeConfigError);
          expect(() => attachSnowflakes(sequelize, { generator })).toThrow(message);
        } finally {
          await sequelize.close();
        }
      },
    );
  }

  if (ctx.dialect === 'postgres') {
    describe('a global pg parser that turns INT8 into a Number', () => {
      const original = pg.types.getTypeParser(20, 'text');
      beforeAll(() => pg.types.setTypeParser(20, Number));
      afterAll(() => pg.types.setTypeParser(20, original));

      test('GIVEN it THEN attachSnowflakes refuses the Sequelize instance', async () => {
        const sequelize = openSequelize(ctx.db);
        try {
          expect(() => attachSnowflakes(sequelize, { generator })).toThrow(
            /turns 9223372036854775807 into the Number/,
          );
        } finally {
          await sequelize.close();
        }
      });
    });
  }
});

describe('SQLite and the sqlite3 driver', () => {
  test('GIVEN the sqlite dialect on any module but betterSqlite3Module THEN attachSnowflakes refuses it, naming dialectModule', async () => {
    // A stand-in with the sqlite3 module's shape: Sequelize loads `sqlite3` itself otherwise.
    const sqlite3Like = { Database: class {}, OPEN_READWRITE: 2, OPEN_CREATE: 4 };
    const sequelize = new Sequelize({
      dialect: 'sqlite',
      storage: ':memory:',
      dialectModule: sqlite3Like,
      logging: false,
    });
    expect(() => attachSnowflakes(sequelize, { generator })).toThrow(
      /dialectModule: betterSqlite3Module\(Database\)/,
    );
  });
});

describe('the SnowflakeId getter', () => {
  const sequelize = new Sequelize('postgres://unused@127.0.0.1:1/none', { logging: false });
  const { Player } = defineModels(sequelize);

  test.each([
    ['a decimal string (pg)', '9223372036854775807', 2n ** 63n - 1n],
    ['a safe Number (mysql2 below 2^53)', 42, 42n],
    ['a bigint', 7n, 7n],
    ['null', null, null],
  ])('GIVEN %s from the driver THEN the attribute reads as %s', (_label, raw, expected) => {
    expect(Player.build({ id: raw, name: 'x' }, { raw: true, isNewRecord: false }).id).toBe(expected);
  });

  test('GIVEN an unsafe Number from the driver THEN reading the attribute throws IdPrecisionError instead of rounding', () => {
    const player = Player.build({ id: 2 ** 60, name: 'x' }, { raw: true, isNewRecord: false });
    expect(() => player.id).toThrow(IdPrecisionError);
    expect(() => player.id).toThrow(/Player\.id came back from the driver as the Number/);
  });
});

describe('attachSnowflakes options', () => {
  const sequelize = new Sequelize('postgres://unused@127.0.0.1:1/none', { logging: false });

  test.each([
    ['no Sequelize', {}, { generator }, /"sequelize" must be a Sequelize instance/],
    ['no options', sequelize, undefined, /"options" must be an object/],
    ['no generator', sequelize, {}, /"generator" must be/],
  ])(
    'GIVEN %s THEN attachSnowflakes throws InvalidArgumentError naming it',
    (_label, target, options, message) => {
      expect(() => attachSnowflakes(target as Sequelize, options as never)).toThrow(message);
    },
  );

  test('GIVEN a second attach on the same instance THEN it is refused, so no hook runs twice', () => {
    const once = new Sequelize('postgres://unused@127.0.0.1:1/none', { logging: false });
    attachSnowflakes(once, { generator });
    expect(() => attachSnowflakes(once, { generator })).toThrow(/not attached to yet/);
  });
});
