import { InvalidArgumentError } from './errors.js';

/**
 * The largest key an adapter writes: 2^63-1, the top of a signed `BIGINT` on PostgreSQL, MySQL
 * and SQLite alike.
 *
 * @example
 * MAX_KEY; // 9223372036854775807n
 */
export const MAX_KEY = (1n << 63n) - 1n;

/** What every key must be, said once for every message. */
export const KEY_EXPECTED = 'a bigint in 1..2^63-1';

/**
 * Whether `value` is a key snowkey writes: a `bigint` in 1..2^63-1. Zero and negatives are not
 * keys (0 is the "unset" of many languages and of MySQL's AUTO_INCREMENT); a `Number` is not one,
 * since above 2^53 it may already have been rounded to a neighbour's id; a string is not one,
 * since strings become ids only through `parseId` at the edge.
 */
export function isKey(value: unknown): value is bigint {
  return typeof value === 'bigint' && value > 0n && value <= MAX_KEY;
}

/**
 * Returns `value` if it is a key ({@link isKey}), else throws an {@link InvalidArgumentError}
 * naming `argument`. Adapters check every id a generator hands them with it before any row is written.
 *
 * @example
 * assertKey(gen.nextId(), 'generator.nextId()');
 */
export function assertKey(value: unknown, argument: string): bigint {
  if (!isKey(value)) throw new InvalidArgumentError(argument, KEY_EXPECTED, value);
  return value;
}

/**
 * What an adapter does with the value a caller put in a snowflake column:
 * - `'generate'`: the column is empty (`undefined`, or `null` in a column that cannot hold NULL),
 *   so the adapter fills it from the generator;
 * - `'keep'`: a key the caller chose ({@link isKey}), or `null` in a nullable column; written as given.
 *
 * Anything else (a Number, a string, a negative or too large bigint, 0) is an
 * {@link InvalidArgumentError} naming `argument` (`Player.id`, `rows[3].id`), before any row is
 * written. This is the one rule of the library: every adapter applies it, and the conformance suite
 * holds each to it on every database. `argument` may be a function that builds the name: it is
 * called only for the error, so a per-row path need not build a label for every row.
 *
 * @example
 * generateOrKeep(undefined, 'Player.id');          // 'generate'
 * generateOrKeep(7n, 'Player.id');                 // 'keep'
 * generateOrKeep(null, 'Match.replayId', true);    // 'keep': a nullable column keeps its NULL
 * generateOrKeep('123', 'Player.id');
 * // InvalidArgumentError: "Player.id" must be a bigint in 1..2^63-1 (parseId() turns a decimal string into one), or undefined or null to have one generated (received "123")
 */
export function generateOrKeep(
  value: unknown,
  argument: string | (() => string),
  nullable = false,
): 'generate' | 'keep' {
  if (value === undefined) return 'generate';
  if (value === null) return nullable ? 'keep' : 'generate';
  if (isKey(value)) return 'keep';
  throw new InvalidArgumentError(
    typeof argument === 'function' ? argument() : argument,
    `${KEY_EXPECTED} (parseId() turns a decimal string into one), or ${nullable ? 'null to keep the column empty, or undefined' : 'undefined or null'} to have one generated`,
    value,
  );
}
