import { type IdGenerator, InvalidArgumentError, parseId } from '@snowkey/core';
import { assertIdGenerator, generateOrKeep, KEY_EXPECTED, takeId } from '@snowkey/core/adapter';
import { getTableName, is, Table } from 'drizzle-orm';
import { assertDrizzleVersion } from './peer-version.js';

/** A generator, or a function returning one at the first insert (one built later, on a lease). */
export type IdGeneratorSource = IdGenerator | (() => IdGenerator);

/** How a dialect's driver binds an id exactly: pg takes the decimal text, mysql2 and better-sqlite3 a bigint. */
export type BindId = (id: bigint) => string | bigint;

/**
 * The generator a column's `$defaultFn` calls, checked when the column is declared (a generator)
 * or at the first insert (a function that returns one).
 */
export function idSource(source: unknown): () => bigint {
  if (typeof source === 'function') {
    const resolve = source as () => unknown;
    return () => takeId(assertIdGenerator(resolve(), 'generator()'));
  }
  const generator = assertIdGenerator(source);
  return () => takeId(generator);
}

// The driver's side is written out, not aliased, so that the columns' inferred types can be named
// in a user's declaration files.
/** A snowflake column's `customType` values: `bigint`, and what each driver returns for BIGINT. */
export type SnowflakeIdType = { data: bigint; driverData: string | number | bigint };

/** `snowflakeId(generator)` or `(name, generator)` as a name ('' lets Drizzle choose) and a source. */
export function columnArgs(a: unknown, b: unknown): { name: string; nextId: () => bigint } {
  assertDrizzleVersion();
  if (typeof a === 'string') return { name: a, nextId: idSource(b) };
  if (b !== undefined) throw new InvalidArgumentError('name', 'a string (the column name)', a);
  return { name: '', nextId: idSource(a) };
}

/** What a value bound later (a placeholder, a comparison) that is not a key is told to be instead. */
const BOUND_LATER = {
  id: `${KEY_EXPECTED}: Drizzle generates an id only for a column left out of values(), not for a value bound later (a placeholder or a comparison)`,
  ref: `${KEY_EXPECTED}, the id of the row it refers to`,
} as const;

/**
 * The `customType` parameters of a snowflake column (`kind` `'id'` is filled, `'ref'` refers to one).
 * In: Drizzle sends a value the caller set straight to `toDriver`, so it applies `generateOrKeep`
 * (`null` is bound by Drizzle itself). Out: `parseId`, so a rounded Number fails the read.
 */
export function snowflakeIdParams(bind: BindId, kind: keyof typeof BOUND_LATER) {
  return {
    dataType: () => 'bigint',
    // `function`, not an arrow: Drizzle calls it as a method of the column (`this.mapTo(value)`),
    // which gives the error message the column's table and name.
    toDriver: function toDriver(this: unknown, value: bigint): SnowflakeIdType['driverData'] {
      const column = describeColumn(this);
      if (generateOrKeep(value, column.argument, column.nullable) === 'keep') {
        // A NULL kept in a nullable column (Drizzle binds a literal null itself; a placeholder does not).
        return value === null ? (null as never) : bind(value);
      }
      // Only a value bound later gets here with undefined, or null in a NOT NULL column.
      throw new InvalidArgumentError(column.argument, BOUND_LATER[kind], value);
    },
    fromDriver: function fromDriver(this: unknown, value: SnowflakeIdType['driverData']): bigint {
      return parseId(value, describeColumn(this).argument);
    },
  };
}

const described = new WeakMap<object, { argument: string; nullable: boolean }>();

/** `table.column` for error messages, and whether the column admits NULL (once per column). */
function describeColumn(column: unknown): { argument: string; nullable: boolean } {
  const key = typeof column === 'object' && column !== null ? column : undefined;
  const known = key && described.get(key);
  if (known) return known;
  const c = column as { name?: unknown; table?: unknown; notNull?: unknown } | undefined;
  const name = typeof c?.name === 'string' && c.name !== '' ? c.name : 'snowflakeId';
  const table = is(c?.table, Table) ? `${getTableName(c.table as Table)}.` : '';
  const description = { argument: `${table}${name}`, nullable: c?.notNull === false };
  if (key) described.set(key, description);
  return description;
}
