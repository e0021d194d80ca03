import type { IdGenerator } from '@snowkey/core';
import { InvalidArgumentError } from '@snowkey/core';
import { assertIdGenerator } from '@snowkey/core/adapter';

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

const TABLES = 'an object mapping table names to a column name or a non-empty array of column names';
const COLUMNS = 'a column name or a non-empty array of distinct, non-empty column names';

/**
 * Checks the options eagerly, so a bad generator or an empty column list fails where the plugin is
 * built, not at the first insert.
 */
export function resolveOptions(options: SnowkeyPluginOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with "generator" and "tables"', options);
  }
  const { generator, tables } = options;
  assertIdGenerator(generator);
  if (tables === null || typeof tables !== 'object' || Array.isArray(tables)) {
    throw new InvalidArgumentError('tables', TABLES, tables);
  }
  const resolved = new Map<string, readonly string[]>();
  for (const [table, spec] of Object.entries(tables)) {
    if (table.length === 0) throw new InvalidArgumentError('tables', `${TABLES}, none empty`, table);
    const columns: unknown = typeof spec === 'string' ? [spec] : spec;
    if (
      !Array.isArray(columns) ||
      columns.length === 0 ||
      !columns.every((c) => typeof c === 'string' && c.length > 0) ||
      new Set(columns).size !== columns.length
    ) {
      throw new InvalidArgumentError(`tables.${table}`, COLUMNS, spec);
    }
    resolved.set(table, columns as string[]);
  }
  if (resolved.size === 0)
    throw new InvalidArgumentError('tables', `${TABLES}, with at least one table`, tables);
  return { generator, tables: resolved };
}
