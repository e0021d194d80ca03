import { InvalidArgumentError } from './errors.js';
import { assertIdGenerator, type IdGenerator } from './id-generator.js';

/** How one adapter names the parts of its options: `tables`/`table`/`column` or `models`/`model`/`field`. */
export interface SnowflakeColumnsWords {
  /** The option that maps owners to their snowflake columns: `'tables'`, `'models'`. */
  readonly option: string;
  /** What owns the columns: `'table'`, `'model'`. */
  readonly owner: string;
  /** What a column is called: `'column'`, `'field'`. */
  readonly column: string;
}

/** An adapter's options after {@link resolveSnowflakeColumns}: each owner to its snowflake columns. */
export interface ResolvedSnowflakeColumns {
  readonly generator: IdGenerator;
  readonly columns: ReadonlyMap<string, readonly string[]>;
}

/**
 * Checks an adapter's generator and table-to-columns map eagerly, so a bad one fails where the
 * adapter is built, not at the first insert; `undefined` entries are left out.
 */
export function resolveSnowflakeColumns(
  options: unknown,
  words: SnowflakeColumnsWords,
): ResolvedSnowflakeColumns {
  const { option, owner, column } = words;
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', `an object with "generator" and "${option}"`, options);
  }
  const generator = assertIdGenerator((options as { generator?: unknown }).generator);
  const map = (options as Record<string, unknown>)[option];
  const mapExpected = `an object mapping ${owner} names to a ${column} name or a non-empty array of ${column} names`;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    throw new InvalidArgumentError(option, mapExpected, map);
  }
  const columns = new Map<string, readonly string[]>();
  for (const [name, spec] of Object.entries(map)) {
    if (spec === undefined) continue;
    if (name.length === 0)
      throw new InvalidArgumentError(option, `${mapExpected}, no ${owner} name empty`, map);
    const list: unknown = typeof spec === 'string' ? [spec] : spec;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((c) => typeof c === 'string' && c.length > 0) ||
      new Set(list).size !== list.length
    ) {
      throw new InvalidArgumentError(
        `${option}.${name}`,
        `a ${column} name or a non-empty array of distinct, non-empty ${column} names`,
        spec,
      );
    }
    columns.set(name, Object.freeze([...(list as string[])]));
  }
  if (columns.size === 0) {
    throw new InvalidArgumentError(option, `${mapExpected}, with at least one ${owner}`, map);
  }
  return { generator, columns };
}
