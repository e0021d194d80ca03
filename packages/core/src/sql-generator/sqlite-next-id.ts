import { InvalidArgumentError } from '../errors.js';
import { assertIdGenerator, type IdGenerator, takeId } from '../id-generator.js';
import type { Layout } from '../layout.js';
import { type NodeIdSource, Snowflake } from '../snowflake.js';

/** The part of a better-sqlite3 `Database` that {@link registerSqliteNextId} uses. */
export interface SqliteFunctionHost {
  function(
    name: string,
    options: { deterministic?: boolean; varargs?: boolean; directOnly?: boolean },
    fn: () => bigint,
  ): unknown;
}

/** The application's own generator (one sequence for both), or a layout and a lease of its own. */
export type SqliteNextIdSource =
  | { readonly generator: IdGenerator }
  | { readonly layout: Layout; readonly lease: NodeIdSource };

/**
 * Registers `snowkey_next_id()` on one SQLite connection, for use in an INSERT (SQLite refuses it in
 * a column DEFAULT); returns the generator behind it.
 *
 * @example
 * const lease = await leaseNodeId({ client: sqliteSqlClient(db), layout: layouts.snowkey });
 * const gen = registerSqliteNextId(db, { layout: layouts.snowkey, lease });
 * db.prepare('INSERT INTO orders (id, item) VALUES (snowkey_next_id(), ?)').run('sword');
 */
export function registerSqliteNextId(db: SqliteFunctionHost, source: SqliteNextIdSource): IdGenerator {
  if (
    db === null ||
    typeof db !== 'object' ||
    typeof (db as { function?: unknown }).function !== 'function'
  ) {
    throw new InvalidArgumentError('db', 'a better-sqlite3 Database (with a function() method)', db);
  }
  if (source === null || typeof source !== 'object') {
    throw new InvalidArgumentError('source', '{ generator } or { layout, lease }', source);
  }
  const generator =
    'generator' in source
      ? assertIdGenerator(source.generator, 'source.generator')
      : new Snowflake({ layout: source.layout, lease: source.lease });
  // Not deterministic: SQLite must call it once per row, never fold calls together.
  db.function('snowkey_next_id', { deterministic: false, varargs: false }, () => takeId(generator));
  return generator;
}
