import type { IdGenerator } from '@snowkey/core';
import { optionalBoolean, resolveSnowflakeColumns } from '@snowkey/core/adapter';
import { type RowCopier, rowCopier } from './copy-row.js';

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
  /** Per table, the copier of its rows (unused with `fillInPlace`). */
  readonly copiers: ReadonlyMap<string, RowCopier>;
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
  // Plain arrays, not core's frozen ones: V8's optimized fill reads a frozen array's elements
  // through a generic call, about 80 instructions a row and column.
  const tables = new Map<string, readonly string[]>();
  const copiers = new Map<string, RowCopier>();
  for (const [table, list] of columns) {
    tables.set(table, [...list]);
    copiers.set(table, rowCopier(list));
  }
  return { generator, tables, fillInPlace, copiers };
}
