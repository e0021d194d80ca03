import { InvalidArgumentError } from '@snowkey/core';
import { sql } from 'drizzle-orm';
import { type DrizzleDatabase, type DrizzleDriver, drizzleDriver } from './drizzle-driver.js';

const MAX = '9223372036854775807';

/** How each driver is made to return BIGINT exactly, for the error message. */
const SETTING: Readonly<Record<DrizzleDriver, string>> = {
  'node-postgres':
    'a pg Pool that returns INT8 as text (pg does by default): remove the global `types.setTypeParser(20, ...)` that turns it into a Number, or make it return a string or a bigint',
  mysql2:
    'a mysql2 pool created with `supportBigNumbers: true, bigNumberStrings: true` (without them mysql2 returns BIGINT as a Number, rounded above 2^53)',
  'better-sqlite3':
    'a better-sqlite3 Database passed through `exactSqliteIntegers(sqlite)` (from @snowkey/drizzle) before its first query (without it better-sqlite3 returns integers as Numbers, rounded above 2^53)',
};

/**
 * Reads 2^63-1 back through `db`'s driver and throws, naming the setting to change, when it does not
 * come back exactly: call it at start-up, not at the first id above 2^53.
 *
 * @example
 * import { verifyBigintReads } from '@snowkey/drizzle';
 * import { drizzle } from 'drizzle-orm/mysql2';
 * import mysql from 'mysql2/promise';
 *
 * const db = drizzle(mysql.createPool({ uri, supportBigNumbers: true, bigNumberStrings: true }));
 * await verifyBigintReads(db); // resolves; without the two options it throws, naming them
 */
export async function verifyBigintReads(db: DrizzleDatabase): Promise<void> {
  const { driver } = drizzleDriver(db);
  const read = await probe(db, driver);
  if (String(read) !== MAX || (typeof read !== 'string' && typeof read !== 'bigint')) {
    throw new InvalidArgumentError(
      'db',
      `${SETTING[driver]}, so that BIGINT ${MAX} reads back exactly`,
      read,
    );
  }
}

/** SELECT 2^63-1 through the driver as Drizzle runs raw SQL on it; the value as the driver returned it. */
async function probe(db: DrizzleDatabase, driver: DrizzleDriver): Promise<unknown> {
  type Rows = { n?: unknown }[];
  switch (driver) {
    case 'node-postgres': {
      const result = (await (db as { execute(q: unknown): Promise<unknown> }).execute(
        sql.raw(`select ${MAX}::int8 as n`),
      )) as { rows: Rows };
      return result.rows[0]?.n;
    }
    case 'mysql2': {
      const [rows] = (await (db as { execute(q: unknown): Promise<unknown> }).execute(
        sql.raw(`select cast(${MAX} as signed) as n`),
      )) as [Rows];
      return rows[0]?.n;
    }
    case 'better-sqlite3': {
      const rows = (db as { all(q: unknown): unknown }).all(sql.raw(`select ${MAX} as n`)) as Rows;
      return rows[0]?.n;
    }
  }
}
