import {
  InvalidArgumentError,
  mysqlSqlClient,
  pgSqlClient,
  type SqlClient,
  sqliteSqlClient,
} from '@snowkey/core';
import type { MysqlQueryable, PgQueryable, SqliteDatabaseLike } from '@snowkey/core/adapter';
import { type DrizzleDatabase, drizzleDriver, SUPPORTED_DRIVERS } from './drizzle-driver.js';

const EXPECTED = `a Drizzle database (not a transaction) ${SUPPORTED_DRIVERS}`;

/**
 * Core's `SqlClient` over the connection your Drizzle database already holds (`db.$client`: the
 * `pg` Pool, the `mysql2` pool, the better-sqlite3 Database), so worker-id leases and the segment
 * allocator need no second connection. It is core's own driver client (`pgSqlClient`,
 * `mysqlSqlClient`, `sqliteSqlClient`) on that connection. A transaction is refused: a lease
 * outlives any transaction.
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
      return pgSqlClient(client as PgQueryable);
    case 'mysql2':
      return mysqlSqlClient(client as MysqlQueryable);
    case 'better-sqlite3':
      return sqliteSqlClient(client as SqliteDatabaseLike);
  }
}
