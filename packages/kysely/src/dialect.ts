import { InvalidArgumentError, type SqlDialect } from '@snowkey/core';
import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from 'kysely';

const EXPECTED =
  'a Kysely instance or transaction whose dialect uses PostgresAdapter, MysqlAdapter or SqliteAdapter';

/** The SQL family of a Kysely instance from its adapter; another is an {@link InvalidArgumentError}. */
export function kyselyDialect<DB>(db: Kysely<DB>, argument = 'db'): SqlDialect {
  const adapter = adapterOf(db);
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  throw new InvalidArgumentError(argument, EXPECTED, adapter ?? db);
}

function adapterOf(db: unknown): unknown {
  const getExecutor = (db as { getExecutor?: unknown } | null)?.getExecutor;
  if (typeof getExecutor !== 'function') return undefined;
  return (getExecutor.call(db) as { adapter?: unknown }).adapter;
}
