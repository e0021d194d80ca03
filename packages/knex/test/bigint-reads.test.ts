import { bigintTypeCast, InvalidArgumentError, type TypeCastField } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withBigintReads } from '../src/index.js';
import { openKnex } from './open-knex.js';

const ABOVE_2_53 = 2n ** 53n + 1n;
const MAX_I64 = 2n ** 63n - 1n;

describeEachDialect('withBigintReads', (ctx) => {
  const opened: Knex[] = [];
  const open = (options?: Parameters<typeof openKnex>[1]) => {
    const k = openKnex(ctx.db, options);
    opened.push(k);
    return k;
  };

  beforeAll(async () => {
    await ctx.db.query('CREATE TABLE edge (id BIGINT PRIMARY KEY, qty INT NOT NULL)');
    await ctx.db.query('INSERT INTO edge (id, qty) VALUES (?, ?), (?, ?), (?, ?)', [
      MAX_I64,
      1,
      ABOVE_2_53,
      2,
      0n,
      3,
    ]);
  });
  afterAll(async () => {
    await Promise.all(opened.map((k) => k.destroy()));
  });

  test('GIVEN BIGINT values at 2^53+1 and 2^63-1 THEN selects and COUNT(*) read back as exact bigint', async () => {
    const knex = open();
    const rows = await knex('edge').select('id', 'qty').orderBy('qty');
    expect(rows.map((r) => [r.id, Number(r.qty)])).toEqual([
      [MAX_I64, 1],
      [ABOVE_2_53, 2],
      [0n, 3],
    ]);
    expect(await knex('edge').count({ n: '*' })).toEqual([{ n: 3n }]);
  });

  test('GIVEN an INT column THEN it stays a number on pg and mysql, and is a bigint on sqlite (safeIntegers is all-or-nothing)', async () => {
    const [row] = await open()('edge').where({ id: MAX_I64 }).select('qty');
    expect(row.qty).toBe(ctx.dialect === 'sqlite' ? 1n : 1);
  });

  test('GIVEN a pool with the setting already in use THEN a Knex without it still reads 2^53+1 the driver default way (nothing global changed)', async () => {
    await open()('edge').select('id');
    const [row] = await open({ exact: false })('edge').where({ qty: 2 }).select('id');
    // pg: the text; mysql2 and better-sqlite3: a Number, already rounded to 2^53.
    expect(row.id).toBe(ctx.dialect === 'postgres' ? String(ABOVE_2_53) : 2 ** 53);
  });

  if (ctx.dialect === 'sqlite') {
    test('GIVEN better-sqlite3 without compileSqlOnError: false THEN a failed INSERT with a bigint binding hides the database error behind a TypeError', async () => {
      // Row 2^63-1 exists: each INSERT below fails on the primary key, with a bigint binding.
      const duplicate = (knex: Knex) => knex('edge').insert({ id: MAX_I64, qty: 9 });
      const hidden: unknown = await duplicate(open({ exact: false })).catch((err: unknown) => err);
      expect(hidden).toBeInstanceOf(TypeError);
      expect((hidden as TypeError).message).toBe('str.replace is not a function');
      // withBigintReads sets compileSqlOnError: false: the database's own error and code come through.
      await expect(duplicate(open())).rejects.toMatchObject({
        code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
        message: expect.stringContaining('UNIQUE constraint failed: edge.id'),
      });
    });
  }

  if (ctx.dialect === 'postgres') {
    test('GIVEN an int8[] THEN pg reads every element as a bigint', async () => {
      const { rows } = await open().raw('SELECT array_agg(id ORDER BY qty) AS ids FROM edge');
      expect(rows).toEqual([{ ids: [MAX_I64, ABOVE_2_53, 0n] }]);
    });

    test('GIVEN a user afterCreate THEN it still runs, after the parsers are set', async () => {
      const seen: unknown[] = [];
      const base = openKnex(ctx.db, { exact: false }).client.config as Knex.Config;
      const knex = (await import('knex')).default(
        withBigintReads({
          ...base,
          pool: {
            min: 0,
            max: 1,
            afterCreate: (
              conn: { query(sql: string, cb: (err: unknown, res: unknown) => void): void },
              done: Function,
            ) =>
              conn.query('SELECT 2::int8 AS n', (err, res) => {
                seen.push((res as { rows: unknown[] }).rows[0]);
                done(err, conn);
              }),
          },
        }),
      );
      opened.push(knex);
      await knex.raw('SELECT 1');
      expect(seen).toEqual([{ n: 2n }]);
    });
  }

  if (ctx.dialect === 'mysql') {
    test('GIVEN the mariadb client THEN BIGINT reads back as exact bigint too', async () => {
      const rows = await open({ client: 'mariadb' })('edge').select('id').orderBy('qty');
      expect(rows.map((r) => r.id)).toEqual([MAX_I64, ABOVE_2_53, 0n]);
    });
  }
});

describe('withBigintReads config', () => {
  test('GIVEN a mysql2 connection string THEN it moves to `uri` beside a typeCast, and the input is not mutated', () => {
    const config = { client: 'mysql2', connection: 'mysql://root@localhost/test' };
    const out = withBigintReads(config);
    expect(out.connection).toEqual({ uri: 'mysql://root@localhost/test', typeCast: expect.any(Function) });
    expect(config.connection).toBe('mysql://root@localhost/test');
  });

  test('GIVEN better-sqlite3 THEN compileSqlOnError defaults to false and an explicit value is kept', () => {
    const config: Knex.Config = { client: 'better-sqlite3', connection: { filename: 'x.db' } };
    expect(withBigintReads(config).compileSqlOnError).toBe(false);
    expect(withBigintReads({ ...config, compileSqlOnError: true }).compileSqlOnError).toBe(true);
  });

  test('GIVEN a connection function THEN what it returns gets the setting', async () => {
    const out = withBigintReads({
      client: 'better-sqlite3',
      connection: async () => ({ filename: 'x.db', options: { readonly: true } }),
    });
    const provide = out.connection as () => Promise<unknown>;
    expect(await provide()).toEqual({ filename: 'x.db', options: { readonly: true, safeIntegers: true } });
  });

  test.each([
    ['an unsupported client', { client: 'sqlite3', connection: { filename: 'x' } }, 'config.client'],
    ['a native connectionPool', { client: 'pg', connectionPool: {} }, 'config.connectionPool'],
    ['typeCast: false', { client: 'mysql2', connection: { typeCast: false } }, 'config.connection.typeCast'],
    ['a mariadb connection string', { client: 'mariadb', connection: 'mysql://x' }, 'config.connection'],
    [
      'an afterCreate that is not a function',
      { client: 'pg', pool: { afterCreate: 1 } },
      'config.pool.afterCreate',
    ],
  ])('GIVEN %s THEN it throws an InvalidArgumentError naming %s', (_label, config, argument) => {
    let caught: unknown;
    try {
      withBigintReads(config as Knex.Config);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect((caught as InvalidArgumentError).argument).toBe(argument);
  });
});

describe('bigintTypeCast', () => {
  const field = (type: string, text: string | null): TypeCastField => ({ type, string: () => text });

  test.each([
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    [null, null],
  ])('GIVEN a LONGLONG field reading %j THEN it is %s', (text, expected) => {
    expect(bigintTypeCast()(field('LONGLONG', text), () => 'next')).toBe(expected);
  });

  test('GIVEN another type THEN it defers to the inner typeCast, or to next', () => {
    expect(bigintTypeCast()(field('LONG', '5'), () => 'next')).toBe('next');
    expect(bigintTypeCast((f) => `inner ${f.type}`)(field('LONG', '5'), () => 'next')).toBe('inner LONG');
  });
});
