import { describeEachDialect } from '@snowkey/test-harness';
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { BigintReadError, pgBigintTypes, verifyBigintReads } from '../src/index.js';
import { openKysely } from './open-kysely.js';

const SETTING = {
  postgres: /types: pgBigintTypes\(pg\.types\)/,
  mysql: /typeCast: bigintTypeCast\(\)/,
  sqlite: /defaultSafeIntegers\(true\)/,
} as const;

describeEachDialect('kysely BIGINT reads', (ctx) => {
  test('GIVEN the driver settings of the README THEN verifyBigintReads passes and 2^63-1 and 2^53+1 read back as exact bigints', async () => {
    const db = openKysely(ctx.db);
    try {
      await verifyBigintReads(db);
      await sql`CREATE TABLE wide (id BIGINT NOT NULL PRIMARY KEY)`.execute(db);
      await sql`INSERT INTO wide (id) VALUES (${2n ** 63n - 1n}), (${2n ** 53n + 1n})`.execute(db);
      const { rows } = await sql<{ id: unknown }>`SELECT id FROM wide ORDER BY id`.execute(db);
      expect(rows).toEqual([{ id: 2n ** 53n + 1n }, { id: 2n ** 63n - 1n }]);
    } finally {
      await db.destroy();
    }
  });

  test("GIVEN each driver's defaults THEN verifyBigintReads refuses the set-up with BigintReadError naming the setting", async () => {
    const db = openKysely(ctx.db, { exact: false });
    try {
      const err = await verifyBigintReads(db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BigintReadError);
      expect((err as BigintReadError).dialect).toBe(ctx.dialect);
      // pg hands back a string; mysql2 and better-sqlite3 a rounded Number.
      expect(typeof (err as BigintReadError).received).toBe(ctx.dialect === 'postgres' ? 'string' : 'number');
      expect((err as Error).message).toMatch(SETTING[ctx.dialect]);
    } finally {
      await db.destroy();
    }
  });
});

test('GIVEN pgBigintTypes THEN int8 and int8[] parse to bigint and every other type keeps its parser', () => {
  const fallback = (text: string) => `default:${text}`;
  const types = pgBigintTypes({
    getTypeParser: (oid) => (oid === 1016 ? (text: string) => text.slice(1, -1).split(',') : fallback),
  });
  expect(types.getTypeParser(20, 'text')('9223372036854775807')).toBe(2n ** 63n - 1n);
  expect(types.getTypeParser(1016, 'text')('{1,9007199254740993}')).toEqual([1n, 9007199254740993n]);
  expect(types.getTypeParser(23, 'text')('5')).toBe('default:5');
  expect(types.getTypeParser(20, 'binary')('x')).toBe('default:x');
});
