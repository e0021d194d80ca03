import type { IdGenerator } from '@snowkey/core';
import { optionalBoolean, resolveSnowflakeColumns } from '@snowkey/core/adapter';

/** Which columns of which tables hold snowflake ids. */
export type SnowflakeTables = { readonly [table: string]: string | readonly string[] };

/** Options of {@link snowkeyKnex}. */
export interface SnowkeyKnexOptions<Tables extends SnowflakeTables = SnowflakeTables> {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
  /** The snowflake columns by table, as the keys of your row objects; an unlisted table is an error. */
  tables: Tables;
  /** Write the ids into your row objects instead of copies (no copy per row). Default `false`. */
  fillInPlace?: boolean;
}

/** The options after validation: table name to its snowflake columns. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly tables: ReadonlyMap<string, readonly string[]>;
  readonly fillInPlace: boolean;
}

/** Checks the options eagerly, so a bad one fails where the helper is built. */
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
