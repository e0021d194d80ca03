import type { IdGenerator } from '@snowkey/core';
import { optionalBoolean, resolveSnowflakeColumns } from '@snowkey/core/adapter';

/**
 * Which columns of which tables hold snowflake ids.
 *
 * @example
 * const tables = { players: 'id', items: ['id', 'serial_no'] } as const satisfies SnowflakeTables;
 */
export type SnowflakeTables = { readonly [table: string]: string | readonly string[] };

/**
 * Options of {@link snowkeyKnex}.
 *
 * @example
 * const options: SnowkeyKnexOptions = { generator: new Snowflake({ workerId: 1 }), tables: { players: 'id' } };
 */
export interface SnowkeyKnexOptions<Tables extends SnowflakeTables = SnowflakeTables> {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
  /**
   * The snowflake columns, once, by table, named as the keys of the row objects you pass to
   * `insert` (the names before any `wrapIdentifier` mapping). Inserting into a table not listed
   * here through the helper is an error, so a typo can never leave rows without ids.
   */
  tables: Tables;
  /**
   * Write the ids into the row objects you pass instead of into copies of them (default `false`:
   * your objects are left alone). In place there is no copy per row, the cheapest insert, and
   * your rows hold their ids after the call, as TypeORM's and Sequelize's entities do; the
   * resolved rows are your objects. A row that cannot take its id (frozen, or passed twice in
   * one call) is refused before any is written. A row inserted again keeps the id it was given.
   */
  fillInPlace?: boolean;
}

/** The options after validation: table name to its snowflake columns. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly tables: ReadonlyMap<string, readonly string[]>;
  readonly fillInPlace: boolean;
}

/**
 * Checks the options eagerly (core's one rule for every adapter's options), so a bad generator or
 * an empty column list fails where the helper is built, not at the first insert.
 */
export function resolveOptions(options: SnowkeyKnexOptions): ResolvedOptions {
  const { generator, columns } = resolveSnowflakeColumns(options, {
    option: 'tables',
    owner: 'table',
    column: 'column',
  });
  const fillInPlace = optionalBoolean(
    'fillInPlace',
    (options as { fillInPlace?: unknown }).fillInPlace,
    false,
  );
  return { generator, tables: columns, fillInPlace };
}
