import { InvalidArgumentError, type SqlDialect } from '@snowkey/core';
import type { Knex } from 'knex';

/** Knex's `driverName` of each supported client, mapped to its SQL family. */
const DRIVERS: Readonly<Record<string, SqlDialect>> = {
  pg: 'postgres',
  mysql: 'mysql',
  mysql2: 'mysql',
  mariadb: 'mysql',
  sqlite3: 'sqlite',
  'better-sqlite3': 'sqlite',
};

const EXPECTED = `a Knex instance or transaction whose client is one of ${Object.keys(DRIVERS).join(', ')}`;

/**
 * The SQL family of a Knex instance or transaction, from the driver Knex loaded. Anything else
 * (MSSQL, Oracle, CockroachDB, Redshift) is an {@link InvalidArgumentError}: snowkey is tested on
 * PostgreSQL, MySQL/MariaDB and SQLite only.
 *
 * @example
 * knexDialect(knex({ client: 'mysql2', connection })); // 'mysql'
 */
export function knexDialect(knex: Knex, argument = 'knex'): SqlDialect {
  const driverName = driverNameOf(knex);
  const dialect = driverName === undefined ? undefined : DRIVERS[driverName];
  if (!dialect) throw new InvalidArgumentError(argument, EXPECTED, driverName ?? knex);
  return dialect;
}

/** Knex's name for the driver behind `knex` (`'pg'`, `'mysql2'`, `'better-sqlite3'`...), if it is a Knex. */
export function driverNameOf(knex: unknown): string | undefined {
  if (typeof knex !== 'function') return undefined;
  const client = (knex as { client?: { driverName?: unknown } }).client;
  return typeof client?.driverName === 'string' ? client.driverName : undefined;
}
