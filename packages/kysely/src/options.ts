import type { IdGenerator } from '@snowkey/core';
import { resolveSnowflakeColumns } from '@snowkey/core/adapter';

/**
 * Which columns of which tables hold snowflake ids.
 *
 * @example
 * const tables = { players: 'id', items: ['id', 'serial_no'] } as const satisfies SnowflakeTables;
 */
export type SnowflakeTables = { readonly [table: string]: string | readonly string[] };

/**
 * The snowflake tables of a Kysely `Database` interface: with `satisfies`, the compiler checks
 * each table and column name against your schema types.
 *
 * @example
 * interface Database { players: { id: bigint; name: string }; items: { id: bigint; serial_no: bigint } }
 * const tables = { players: 'id', items: ['id', 'serial_no'] } as const satisfies SnowflakeTablesOf<Database>;
 */
export type SnowflakeTablesOf<DB> = {
  readonly [T in keyof DB & string]?: (keyof DB[T] & string) | readonly (keyof DB[T] & string)[];
};

/**
 * Options of {@link snowkeyPlugin}.
 *
 * @example
 * const options: SnowkeyPluginOptions = { generator: new Snowflake({ workerId: 1 }), tables: { players: 'id' } };
 */
export interface SnowkeyPluginOptions<Tables extends SnowflakeTables = SnowflakeTables> {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
  /**
   * The snowflake columns, once, by table (`'schema.table'` for a table in another schema), named
   * as the plugin sees them in the query: the keys of the objects you pass to `values()`, unless a
   * plugin listed before this one (such as `CamelCasePlugin`) renamed them.
   */
  tables: Tables;
}

/** The options after validation: table name to its snowflake columns. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly tables: ReadonlyMap<string, readonly string[]>;
}

/**
 * Checks the options eagerly (core's one rule for every adapter's options), so a bad generator or
 * an empty column list fails where the plugin is built, not at the first insert.
 */
export function resolveOptions(options: SnowkeyPluginOptions): ResolvedOptions {
  const { generator, columns } = resolveSnowflakeColumns(options, {
    option: 'tables',
    owner: 'table',
    column: 'column',
  });
  return { generator, tables: columns };
}
