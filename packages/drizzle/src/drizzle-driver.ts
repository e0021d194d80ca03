import { InvalidArgumentError, type SqlDialect } from '@snowkey/core';
import { entityKind } from 'drizzle-orm';
import type { MySqlDatabase } from 'drizzle-orm/mysql-core';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';

/** A Drizzle database or transaction on any of the three dialects, as `drizzle(...)` returns it. */
export type DrizzleDatabase =
  // biome-ignore lint/suspicious/noExplicitAny: any schema and result kind; the driver is checked at run time.
  PgDatabase<any, any> | MySqlDatabase<any, any, any> | BaseSQLiteDatabase<any, any, any>;

/** The Drizzle drivers snowkey is tested with, by the entity kind of their session class. */
const DRIVERS = {
  NodePgSession: { driver: 'node-postgres', dialect: 'postgres' },
  MySql2Session: { driver: 'mysql2', dialect: 'mysql' },
  BetterSQLiteSession: { driver: 'better-sqlite3', dialect: 'sqlite' },
} as const satisfies Record<string, { driver: string; dialect: SqlDialect }>;

/** The supported drivers, worded for an error's `expected`. */
export const SUPPORTED_DRIVERS = `on ${Object.values(DRIVERS)
  .map((d) => d.driver)
  .join(', ')} (drizzle-orm/node-postgres, drizzle-orm/mysql2, drizzle-orm/better-sqlite3)`;

/** One of the tested Drizzle drivers. */
export type DrizzleDriver = (typeof DRIVERS)[keyof typeof DRIVERS]['driver'];

/** Which tested driver `db` runs on, and its SQL family; anything else is an {@link InvalidArgumentError}. */
export function drizzleDriver(
  db: unknown,
  argument = 'db',
  expected = `a Drizzle database ${SUPPORTED_DRIVERS}`,
): { driver: DrizzleDriver; dialect: SqlDialect } {
  const session = (db as { session?: unknown } | null | undefined)?.session;
  const kind =
    typeof session === 'object' && session !== null
      ? (session.constructor as { [entityKind]?: unknown })[entityKind]
      : undefined;
  const found = typeof kind === 'string' ? DRIVERS[kind as keyof typeof DRIVERS] : undefined;
  if (!found) throw new InvalidArgumentError(argument, expected, typeof kind === 'string' ? kind : db);
  return found;
}
