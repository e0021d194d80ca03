import { type IdGenerator, InvalidArgumentError, parseId } from '@snowkey/core';
import { assertIdGenerator, generateOrKeep, KEY_EXPECTED, takeId } from '@snowkey/core/adapter';
import { getTableName, is, Table } from 'drizzle-orm';
import { assertDrizzleVersion } from './peer-version.js';

/**
 * Where a snowflake column takes its ids: a generator, or a function that returns one when the
 * first row is inserted (for a generator built at start-up, after the schema module loaded, e.g.
 * on a worker-id lease).
 *
 * @example
 * const now: IdGeneratorSource = new Snowflake({ workerId: 1 });
 * let leased: Snowflake | undefined; // set at start-up
 * const later: IdGeneratorSource = () => leased!;
 */
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

/**
 * The `customType` values of every snowflake column: TypeScript type `bigint`; on the driver's side
 * what each driver returns for BIGINT (pg text, mysql2 text or a Number, better-sqlite3 a Number or
 * a bigint).
 *
 * @example
 * customType<SnowflakeIdType>(snowflakeIdParams(String, 'id'));
 */
// The driver's side is written out, not aliased, so that the columns' inferred types can be named
// in a user's declaration files.
export type SnowflakeIdType = { data: bigint; driverData: string | number | bigint };

/**
 * `snowflakeId(generator)` or `snowflakeId(name, generator)`, Drizzle's two column signatures, as
 * the column's database name ('' lets Drizzle take the key, or its casing) and its id source.
 */
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
 * The `customType` parameters of a snowflake column on any dialect: SQL type `bigint`, TypeScript
 * type `bigint`, and core's rules on the way in and out. `kind` is `'id'` for a column filled from
 * a generator (`snowflakeId`) and `'ref'` for one that refers to such an id (`snowflakeRef`).
 *
 * In: Drizzle calls `$defaultFn` only for a column left out of `values()` (or set to `undefined`);
 * a value the caller set goes straight to the driver through `toDriver`. So `toDriver` applies
 * core's one caller-id rule (`generateOrKeep`): a key (a bigint in 1..2^63-1) is bound, anything
 * else is an `InvalidArgumentError` naming `table.column` before any SQL is sent. Drizzle binds
 * `null` itself, without `toDriver`: a NOT NULL column refuses it in the database.
 *
 * Out: `parseId` from core, so a driver that hands back a rounded Number (above 2^53) fails the
 * read instead of returning a wrong id.
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
