import type { MysqlQueryable, PgQueryable, SqliteDatabaseLike } from '@snowkey/core';
import {
  InvalidArgumentError,
  mysqlSqlClient,
  pgSqlClient,
  type SqlClient,
  sqliteSqlClient,
} from '@snowkey/core';
import { type DrizzleDatabase, drizzleDriver, SUPPORTED_DRIVERS } from './drizzle-driver.js';

const EXPECTED = `a Drizzle database (not a transaction) ${SUPPORTED_DRIVERS}`;

/**
 * Core's `SqlClient` over the pool your Drizzle database holds, for leases and segments. A
 * transaction, or a single `pg`/`mysql2` connection (Drizzle's transactions run on it), is refused.
 *
 * @example
 * import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
 * import { drizzleSqlClient } from '@snowkey/drizzle';
 *
 * const lease = await leaseNodeId({ client: drizzleSqlClient(db), layout: layouts.default });
 * const generator = new Snowflake({ layout: layouts.default, lease });
 */
export function drizzleSqlClient(db: DrizzleDatabase): SqlClient {
  const { driver } = drizzleDriver(db, 'db', EXPECTED);
  const client: unknown = (db as { $client?: unknown }).$client;
  if (client === undefined || client === null)
    throw new InvalidArgumentError('db', EXPECTED, 'a transaction');
  switch (driver) {
    case 'node-postgres':
      // Drizzle's own test for a pool (`instanceof Pool`), without importing pg.
      if (!isPoolWith(client, 'totalCount')) throw singleConnection('pg Pool', 'pg Client');
      return pgSqlClient(client as PgQueryable);
    case 'mysql2':
      // Drizzle's own test for a mysql2 pool.
      if (!isPoolWith(client, 'getConnection')) throw singleConnection('mysql2 pool', 'mysql2 connection');
      return mysqlSqlClient(client as MysqlQueryable);
    case 'better-sqlite3':
      return sqliteSqlClient(client as SqliteDatabaseLike);
  }
}

/** Whether a driver's connection object has the member only its pool has. */
function isPoolWith(client: unknown, member: string): boolean {
  return typeof client === 'object' && client !== null && member in client;
}

function singleConnection(pool: string, single: string): InvalidArgumentError {
  return new InvalidArgumentError(
    'db',
    `a Drizzle database on a ${pool} (on a single connection Drizzle runs the application's transactions, and a lease or segment written there would roll back with them; give core a pool of its own, e.g. pgSqlClient(pool))`,
    `a database on a single ${single}`,
  );
}
