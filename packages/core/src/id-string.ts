import { InvalidIdError } from './errors.js';

const MAX_U64 = (1n << 64n) - 1n;
const DIGITS = /^(0|[1-9][0-9]*)$/;
const EXPECTED = 'a decimal string of digits, a bigint or a safe integer in 0..2^64-1';

/**
 * Parses an id from the edge of the system (JSON, a URL, a form) strictly: a bigint, a decimal
 * string of digits without sign, spaces or leading zeros, or a safe non-negative integer Number.
 * Anything else, or a value at or above 2^64, is an {@link InvalidIdError} naming what it got.
 *
 * @example
 * parseId('175928847299117063'); // 175928847299117063n
 * parseId(2 ** 53);              // InvalidIdError: not a safe integer, precision may be lost already
 */
export function parseId(value: unknown, argument = 'id'): bigint {
  let id: bigint;
  if (typeof value === 'bigint') {
    id = value;
  } else if (typeof value === 'string') {
    if (!DIGITS.test(value)) throw new InvalidIdError(argument, EXPECTED, value);
    id = BigInt(value);
  } else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new InvalidIdError(
        argument,
        `${EXPECTED} (a Number above 2^53-1 may already have lost precision)`,
        value,
      );
    }
    id = BigInt(value);
  } else {
    throw new InvalidIdError(argument, EXPECTED, value);
  }
  if (id < 0n || id > MAX_U64) throw new InvalidIdError(argument, EXPECTED, value);
  return id;
}

/**
 * Formats an id for the edge (JSON, URLs) as its decimal string, after checking it is a valid id.
 *
 * @example
 * toIdString(175928847299117063n); // '175928847299117063'
 */
export function toIdString(id: bigint, argument = 'id'): string {
  if (typeof id !== 'bigint') throw new InvalidIdError(argument, 'a bigint id', id);
  return parseId(id, argument).toString();
}

/**
 * A `JSON.stringify` replacer that writes every bigint as a decimal string (plain
 * `JSON.stringify` throws on bigint).
 *
 * @example
 * JSON.stringify({ id: 175928847299117063n }, idReplacer); // '{"id":"175928847299117063"}'
 */
export function idReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * Builds a `JSON.parse` reviver that turns the named keys (`id`, `userId`...) back into bigint,
 * strictly; a key whose value is not a valid id throws {@link InvalidIdError}. Other keys are left alone.
 *
 * @example
 * JSON.parse('{"id":"175928847299117063","name":"Aria"}', idReviver(['id'])); // { id: 175928847299117063n, name: 'Aria' }
 */
export function idReviver(keys: Iterable<string> | ((key: string) => boolean)) {
  const isIdKey =
    typeof keys === 'function'
      ? keys
      : (
          (set) => (k: string) =>
            set.has(k)
        )(new Set(keys));
  return function revive(key: string, value: unknown): unknown {
    if (value === null || !isIdKey(key)) return value;
    return parseId(value, key);
  };
}
