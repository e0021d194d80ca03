import { InvalidArgumentError } from './errors.js';

/** The largest key an adapter writes: 2^63-1, the top of a signed `BIGINT`. */
export const MAX_KEY = (1n << 63n) - 1n;

/** What every key must be, said once for every message. */
export const KEY_EXPECTED = 'a bigint in 1..2^63-1';

// Not keys: 0 (the "unset" of many languages and of MySQL's AUTO_INCREMENT), a Number (above 2^53
// it may already be a neighbour's id), a string (strings become ids only through parseId).
/** Whether `value` is a key snowkey writes: a `bigint` in 1..2^63-1. */
export function isKey(value: unknown): value is bigint {
  return typeof value === 'bigint' && value > 0n && value <= MAX_KEY;
}

/** Returns `value` if it is a key ({@link isKey}), else throws an {@link InvalidArgumentError}. */
export function assertKey(value: unknown, argument: string): bigint {
  if (!isKey(value)) throw new InvalidArgumentError(argument, KEY_EXPECTED, value);
  return value;
}

/**
 * The one rule every adapter applies to a key column's value: `'generate'` when empty (`undefined`,
 * or `null` in a NOT NULL column), `'keep'` for a key or a nullable `null`, else an
 * {@link InvalidArgumentError}. `argument` may be a function, called only for the error.
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
