import { Snowflake } from '@snowkey/core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { describe, expectTypeOf, test } from 'vitest';
import { mysqlSchema, pgSchema, sqliteSchema } from './schema.js';

// Checked by `pnpm typecheck` (tsc): a `@ts-expect-error` line that compiles, or an `expectTypeOf`
// that does not hold, fails the typecheck. The inserts sit in functions that are never called.

const generator = new Snowflake({ workerId: 1 });
const pg = pgSchema(generator);

describe('snowflake column types', () => {
  test('GIVEN the tables THEN every snowflake column reads as bigint on every dialect, nullable where declared so', () => {
    expectTypeOf<typeof pg.items.$inferSelect>().toEqualTypeOf<{
      id: bigint;
      serialNo: bigint;
      giftCode: bigint | null;
      ownerId: bigint | null;
      label: string | null;
    }>();
    expectTypeOf<ReturnType<typeof mysqlSchema>['players']['$inferSelect']['id']>().toEqualTypeOf<bigint>();
    expectTypeOf<ReturnType<typeof sqliteSchema>['players']['$inferSelect']['id']>().toEqualTypeOf<bigint>();
  });

  test('GIVEN an insert THEN the snowflake columns may be left out, a bigint is accepted, and null or a Number in the key are compile errors', () => {
    const db = drizzlePg.mock();
    expectTypeOf<typeof pg.players.$inferInsert>().toEqualTypeOf<{
      id?: bigint;
      name: string;
      qty: number;
    }>();
    const never = () => {
      db.insert(pg.players).values({ name: 'a', qty: 1 });
      db.insert(pg.players).values({ id: 42n, name: 'a', qty: 1 });
      db.insert(pg.items).values({ giftCode: null });
      // @ts-expect-error the key is NOT NULL: null is not an id
      db.insert(pg.players).values({ id: null, name: 'a', qty: 1 });
      // @ts-expect-error a Number is not an id
      db.insert(pg.players).values({ id: 42, name: 'a', qty: 1 });
    };
    expectTypeOf(never).toBeFunction();
  });

  test('GIVEN $returningId on MySQL THEN it is typed with the bigint key', () => {
    const { players } = mysqlSchema(generator);
    const returning = () => drizzleMysql.mock().insert(players).values({ name: 'a', qty: 1 }).$returningId();
    expectTypeOf<Awaited<ReturnType<typeof returning>>>().toEqualTypeOf<{ id: bigint }[]>();
  });
});
