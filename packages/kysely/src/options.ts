import type { IdGenerator } from '@snowkey/core';
import { resolveSnowflakeColumns } from '@snowkey/core/adapter';

/** Which columns of which tables hold snowflake ids. */
export type SnowflakeTables = { readonly [table: string]: string | readonly string[] };

/** The snowflake tables of a Kysely `Database`: with `satisfies`, the compiler checks the names. */
export type SnowflakeTablesOf<DB> = {
  readonly [T in keyof DB & string]?: (keyof DB[T] & string) | readonly (keyof DB[T] & string)[];
};

/** Options of {@link snowkeyPlugin}. */
export interface SnowkeyPluginOptions<Tables extends SnowflakeTables = SnowflakeTables> {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
  /** The snowflake columns by table, named as in the query (after a `CamelCasePlugin` listed before). */
  tables: Tables;
}

/** The options after validation: table name to its snowflake columns. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly tables: ReadonlyMap<string, readonly string[]>;
}

/** Checks the options eagerly, so a bad one fails where the plugin is built. */
export function resolveOptions(options: SnowkeyPluginOptions): ResolvedOptions {
  const { generator, columns } = resolveSnowflakeColumns(options, {
    option: 'tables',
    owner: 'table',
    column: 'column',
  });
  return { generator, tables: columns };
}
