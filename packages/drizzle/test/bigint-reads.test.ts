import { InvalidIdError, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { verifyBigintReads } from '../src/index.js';
import { type OpenedDrizzle, openDrizzle } from './open-drizzle.js';
import { createTables, mysqlSchema, pgSchema, sqliteSchema } from './schema.js';

const ABOVE_2_53 = 2n ** 53n + 1n;
const MAX_I64 = 2n ** 63n - 1n;

describeEachDialect('verifyBigintReads and exact reads', (ctx) => {
  const opened: OpenedDrizzle[] = [];
  const open = (exact: boolean) => {
    const o = openDrizzle(ctx.db, { exact });
    opened.push(o);
    return o;
  };

  beforeAll(async () => {
    await createTables(ctx.db);
    await ctx.db.query('INSERT INTO players (id, name, qty) VALUES (?, ?, 1), (?, ?, 2)', [
      MAX_I64,
      'max',
      ABOVE_2_53,
      'above',
    ]);
  });
  afterAll(async () => {
    await Promise.all(opened.map((o) => o.close()));
  });

  test('GIVEN the set-up the README gives THEN verifyBigintReads resolves and 2^53+1 and 2^63-1 read back exactly', async () => {
    const o = open(true);
    await expect(verifyBigintReads(o.db)).resolves.toBeUndefined();
    expect(await playerIds(o)).toEqual([MAX_I64, ABOVE_2_53]);
  });

  if (ctx.dialect === 'postgres') {
    test('GIVEN pg with its defaults THEN INT8 is text and verifyBigintReads resolves', async () => {
      await expect(verifyBigintReads(open(false).db)).resolves.toBeUndefined();
    });

    test('GIVEN a global pg type parser that turns INT8 into a Number THEN verifyBigintReads refuses the set-up, naming the parser, and a read fails instead of rounding', async () => {
      const o = open(false);
      const before = pg.types.getTypeParser(20, 'text');
      pg.types.setTypeParser(20, Number);
      try {
        await expect(verifyBigintReads(o.db)).rejects.toThrow(
          /"db" must be a pg Pool that returns INT8 as text .*types\.setTypeParser\(20/,
        );
        await expect(playerIds(o)).rejects.toThrow(InvalidIdError);
      } finally {
        pg.types.setTypeParser(20, before);
      }
    });
  }

  if (ctx.dialect === 'mysql') {
    test('GIVEN mysql2 with its defaults THEN verifyBigintReads refuses the set-up naming both options, and a read fails instead of rounding', async () => {
      const o = open(false);
      await expect(verifyBigintReads(o.db)).rejects.toThrow(
        /"db" must be a mysql2 pool created with `supportBigNumbers: true, bigNumberStrings: true`.*\(received 9223372036854776000\)/,
      );
      await expect(playerIds(o)).rejects.toThrow(/"players\.id" must be .* may already have lost precision/);
    });

    test('GIVEN mysql2 with supportBigNumbers alone THEN unsafe values come back as text, safe ones as Numbers: both exact, so the set-up is accepted', async () => {
      const pool = mysql.createPool({ uri: ctx.db.url, connectionLimit: 1, supportBigNumbers: true });
      try {
        const db = drizzleMysql(pool);
        await verifyBigintReads(db);
        const { players } = mysqlSchema(new Snowflake({ workerId: 1 }));
        const rows = await db.select({ id: players.id }).from(players).orderBy(players.qty);
        expect(rows).toEqual([{ id: MAX_I64 }, { id: ABOVE_2_53 }]);
      } finally {
        await pool.end();
      }
    });
  }

  if (ctx.dialect === 'sqlite') {
    test('GIVEN better-sqlite3 without exactSqliteIntegers THEN verifyBigintReads refuses the set-up naming it, and a read fails instead of rounding', async () => {
      const o = open(false);
      await expect(verifyBigintReads(o.db)).rejects.toThrow(/`exactSqliteIntegers\(sqlite\)`/);
      await expect(playerIds(o)).rejects.toThrow(InvalidIdError);
    });

    test('GIVEN exactSqliteIntegers THEN an INT column still reads as a Number', async () => {
      const o = open(true) as Extract<OpenedDrizzle, { dialect: 'sqlite' }>;
      const { players } = sqliteSchema(new Snowflake({ workerId: 1 }));
      expect(await o.db.select({ qty: players.qty }).from(players).orderBy(players.qty)).toEqual([
        { qty: 1 },
        { qty: 2 },
      ]);
    });
  }
});

/** Every player id through Drizzle's select, ordered by qty. */
async function playerIds(o: OpenedDrizzle): Promise<bigint[]> {
  const generator = new Snowflake({ workerId: 1 });
  switch (o.dialect) {
    case 'postgres': {
      const { players } = pgSchema(generator);
      return (await o.db.select({ id: players.id }).from(players).orderBy(players.qty)).map((r) => r.id);
    }
    case 'mysql': {
      const { players } = mysqlSchema(generator);
      return (await o.db.select({ id: players.id }).from(players).orderBy(players.qty)).map((r) => r.id);
    }
    case 'sqlite': {
      const { players } = sqliteSchema(generator);
      return (await o.db.select({ id: players.id }).from(players).orderBy(players.qty)).map((r) => r.id);
    }
  }
}
