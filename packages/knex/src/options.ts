import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { assertIdGenerator } from '@snowkey/core/adapter';

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
}

/** The options after validation: table name to its snowflake columns. */
export interface ResolvedOptions {
  readonly generator: IdGenerator;
  readonly tables: ReadonlyMap<string, readonly string[]>;
}

const TABLES = 'an object mapping table names to a column name or a non-empty array of column names';
const COLUMNS = 'a column name or a non-empty array of distinct, non-empty column names';

/**
 * Checks the options eagerly, so a bad generator or an empty column list fails where the helper is
 * built, not at the first insert.
 */
export function resolveOptions(options: SnowkeyKnexOptions): ResolvedOptions {
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
