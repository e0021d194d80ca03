import { InvalidArgumentError, type SqlDialect } from '@snowkey/core';
import type { Knex } from 'knex';

/**
 * Knex's `driverName` of each supported client, mapped to its SQL family: the drivers that bind a
 * `bigint` exactly and that the tests run against. Knex's `sqlite3` client is left out on purpose:
 * node-sqlite3 has no 64-bit binding and stores a `bigint` parameter as NULL (TryGhost/node-sqlite3
 * #1058), which would write a row without its id; the legacy `mysql` driver is untested.
 */
const DRIVERS: Readonly<Record<string, SqlDialect>> = {
  pg: 'postgres',
  mysql2: 'mysql',
  mariadb: 'mysql',
  'better-sqlite3': 'sqlite',
};

const CLIENTS = `whose client is one of ${Object.keys(DRIVERS).join(', ')}`;

/** The SQL family of a Knex instance from its driver; another is an {@link InvalidArgumentError}. */
export function knexDialect(
  knex: Knex,
  argument = 'knex',
  expected = `a Knex instance or transaction ${CLIENTS}`,
): SqlDialect {
  const driverName = driverNameOf(knex);
  const dialect = driverName === undefined ? undefined : DRIVERS[driverName];
  if (!dialect) throw new InvalidArgumentError(argument, expected, driverName ?? knex);
  return dialect;
}

/** The clients {@link knexDialect} accepts, worded for an error's `expected`. */
export const SUPPORTED_CLIENTS = CLIENTS;

/** Knex's name for the driver behind `knex` (`'pg'`, `'mysql2'`, `'better-sqlite3'`...), if it is a Knex. */
function driverNameOf(knex: unknown): string | undefined {
  if (typeof knex !== 'function') return undefined;
  const client = (knex as { client?: { driverName?: unknown } }).client;
  return typeof client?.driverName === 'string' ? client.driverName : undefined;
}
