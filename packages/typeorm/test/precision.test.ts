import 'reflect-metadata';
import { InvalidArgumentError } from '@snowkey/core';
import { describeEachDialect, selectedDialects } from '@snowkey/test-harness';
import pg from 'pg';
import { Column, type DataSource, Entity } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BigIntTransformer } from '../src/bigint-transformer.js';
import { BigIntColumn, IdPrecisionError } from '../src/index.js';
import { newDataSource } from './support/data-source.js';

@Entity('ledger')
class Ledger {
  @Column({ type: 'int', primary: true }) n!: number;
  @BigIntColumn() amount!: bigint;
  @Column({ type: 'int' }) small!: number;
}

const SAFE = 2n ** 53n - 1n;
const EDGES = [2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)];

describe('BigIntTransformer', () => {
  const t = new BigIntTransformer('Ledger.amount');

  test.each([
    ['the string pg and mysql2 return', '9223372036854775807', 2n ** 63n - 1n],
    ['a negative string', '-9223372036854775808', -(2n ** 63n)],
    ['a bigint (better-sqlite3 safe integers)', 2n ** 63n - 1n, 2n ** 63n - 1n],
    ['a safe Number', Number(SAFE), SAFE],
    ['null', null, null],
  ])('GIVEN the driver returns %s THEN it loads exactly', (_title, raw, loaded) => {
    expect(t.from(raw)).toBe(loaded);
  });

  test('GIVEN the driver returns an unsafe Number THEN loading fails naming the column and the options to set', () => {
    expect(() => t.from(2 ** 63)).toThrow(IdPrecisionError);
    expect(() => t.from(2 ** 63)).toThrow(/Ledger\.amount came back .* the Number 9223372036854776000/);
    expect(() => t.from(2 ** 53 + 2)).toThrow(
      /supportBigNumbers: true.*prepareDatabase: exactSqliteIntegers/,
    );
  });

  test.each([
    ['2^63', 2n ** 63n],
    ['a fraction', 1.5],
    ['a safe Number', 42],
    ['a decimal string', '42'],
    ['a non-digit string', '12a'],
  ])('GIVEN %s to write THEN an InvalidArgumentError names the column', (_title, value) => {
    expect(() => t.to(value)).toThrow(InvalidArgumentError);
    expect(() => t.to(value)).toThrow('"Ledger.amount" must be a bigint that fits a signed BIGINT');
  });

  test('GIVEN a bigint to write THEN the driver gets that bigint, unchanged, negatives included', () => {
    expect(t.to(2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(t.to(-(2n ** 63n))).toBe(-(2n ** 63n));
  });
});

describeEachDialect('BIGINT precision through TypeORM', (ctx) => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = newDataSource(ctx.db, [Ledger], { synchronize: true });
    await ds.initialize();
  });
  afterAll(() => ds?.destroy());
  afterEach(() => ctx.db.query('DELETE FROM ledger'));

  test.each(EDGES)(
    'GIVEN %s written through @BigIntColumn THEN the raw read and the TypeORM load are exact',
    async (amount) => {
      await ds.getRepository(Ledger).insert({ n: 1, amount, small: 7 });

      expect(await ctx.db.query('SELECT amount FROM ledger')).toEqual([{ amount: String(amount) }]);
      const loaded = await ds.getRepository(Ledger).findOneByOrFail({ amount });
      expect(loaded).toEqual({ n: 1, amount, small: 7 });
      expect(typeof loaded.small).toBe('number');
    },
  );
});

/** Opens a second DataSource with driver options that misconfigure BIGINT, on the harness database. */
async function misconfigured(
  ctx: { db: Parameters<typeof newDataSource>[0] },
  overrides: Record<string, unknown>,
) {
  const ds = newDataSource(ctx.db, [Ledger], { synchronize: true, ...overrides });
  await ds.initialize();
  await ctx.db.query('DELETE FROM ledger');
  await ctx.db.query('INSERT INTO ledger (n, amount, small) VALUES (?, ?, ?), (?, ?, ?)', [
    1,
    SAFE,
    1,
    2,
    2n ** 63n - 1n,
    2,
  ]);
  return ds;
}

const only = (d: 'postgres' | 'mysql' | 'sqlite') => ({
  dialects: selectedDialects().filter((s) => s === d),
});

describeEachDialect(
  'better-sqlite3 without exactSqliteIntegers',
  (ctx) => {
    test('GIVEN an id above 2^53 THEN loading fails with an IdPrecisionError naming prepareDatabase, and a safe one loads', async () => {
      const ds = await misconfigured(ctx, { prepareDatabase: undefined });
      try {
        const repo = ds.getRepository(Ledger);
        expect((await repo.findOneByOrFail({ n: 1 })).amount).toBe(SAFE);
        await expect(repo.findOneByOrFail({ n: 2 })).rejects.toThrow(/prepareDatabase: exactSqliteIntegers/);
      } finally {
        await ds.destroy();
      }
    });
  },
  only('sqlite'),
);

describeEachDialect(
  'mysql2 BIGINT options',
  (ctx) => {
    test('GIVEN supportBigNumbers: false THEN loading an id above 2^53 fails with an IdPrecisionError naming the option', async () => {
      const ds = await misconfigured(ctx, { supportBigNumbers: false });
      try {
        await expect(ds.getRepository(Ledger).findOneByOrFail({ n: 2 })).rejects.toThrow(IdPrecisionError);
        await expect(ds.getRepository(Ledger).findOneByOrFail({ n: 2 })).rejects.toThrow(
          /supportBigNumbers: true/,
        );
      } finally {
        await ds.destroy();
      }
    });

    test('GIVEN bigNumberStrings: false THEN mysql2 returns safe values as Numbers and others as strings, and both load exactly', async () => {
      const ds = await misconfigured(ctx, { bigNumberStrings: false });
      try {
        const rows = await ds.getRepository(Ledger).find({ order: { n: 'ASC' } });
        expect(rows.map((r) => r.amount)).toEqual([SAFE, 2n ** 63n - 1n]);
      } finally {
        await ds.destroy();
      }
    });
  },
  only('mysql'),
);

describeEachDialect(
  'pg with an INT8 parser that returns Number',
  (ctx) => {
    test('GIVEN types.setTypeParser(20, Number) THEN loading an id above 2^53 fails with an IdPrecisionError naming the parser', async () => {
      const original = pg.types.getTypeParser(20, 'text');
      pg.types.setTypeParser(20, (v: string) => Number(v));
      const ds = await misconfigured(ctx, { driver: pg });
      try {
        await expect(ds.getRepository(Ledger).findOneByOrFail({ n: 2 })).rejects.toThrow(
          /type parser for INT8 \(OID 20\)/,
        );
      } finally {
        pg.types.setTypeParser(20, original);
        await ds.destroy();
      }
    });
  },
  only('postgres'),
);
