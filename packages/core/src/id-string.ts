import { InvalidIdError } from './errors.js';
import { isKey, KEY_EXPECTED } from './id-rule.js';

declare const idStringBrand: unique symbol;

/** A key's canonical decimal string, branded: it only comes from {@link toIdString} or a check. */
export type IdString = string & { readonly [idStringBrand]: 'IdString' };

/** 2^64-1 has 20 digits: a longer string is refused before BigInt() spends time on it. */
const MAX_DIGITS = 20;
const DIGITS = /^(0|[1-9][0-9]*)$/;

/** The wire rule, said once for every message. */
const ID_EXPECTED = `${KEY_EXPECTED}: a decimal string of digits (no sign, spaces, leading zeros or fraction), a bigint, or a safe integer Number`;

/** A non-negative bigint, canonical decimal string or safe integer as a bigint; undefined otherwise. */
export function readUnsignedId(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'string') {
    return value.length <= MAX_DIGITS && DIGITS.test(value) ? BigInt(value) : undefined;
  }
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  return undefined;
}

/**
 * Parses a key (1..2^63-1) strictly from a bigint, a canonical decimal string or a safe integer;
 * anything else, an unsafe Number included (maybe a neighbour's id already), is an {@link InvalidIdError}.
 *
 * @example
 * parseId('175928847299117063');       // 175928847299117063n
 * parseId(req.params.id, 'params.id'); // InvalidIdError naming "params.id" when it is not a key
 */
export function parseId(value: unknown, argument = 'id'): bigint {
  const id = readUnsignedId(value);
  if (id === undefined || !isKey(id)) {
    const unsafe = typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
    throw new InvalidIdError(
      argument,
      unsafe ? `${ID_EXPECTED} (a Number above 2^53-1 may already have lost precision)` : ID_EXPECTED,
      value,
    );
  }
  return id;
}

/**
 * Whether `value` is a key's canonical decimal string, exactly what {@link toIdString} writes.
 *
 * @example
 * isIdString('042'); // false: not canonical
 */
export function isIdString(value: unknown): value is IdString {
  if (typeof value !== 'string') return false;
  const id = readUnsignedId(value);
  return id !== undefined && isKey(id);
}

/**
 * A key's canonical decimal string, for JSON and URLs; anything but a key is an {@link InvalidIdError}.
 *
 * @example
 * toIdString(175928847299117063n); // '175928847299117063'
 */
export function toIdString(id: bigint, argument = 'id'): IdString {
  if (!isKey(id)) throw new InvalidIdError(argument, KEY_EXPECTED, id);
  return id.toString() as IdString;
}

/**
 * A `JSON.stringify` replacer that writes every bigint as its exact decimal string.
 *
 * @example
 * JSON.stringify({ id: 9223372036854775807n }, idReplacer); // '{"id":"9223372036854775807"}'
 */
export function idReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * A `JSON.parse` reviver that parses the named keys (at any depth; an id or an array of ids) with
 * {@link parseId}.
 *
 * @example
 * JSON.parse('{"id":"9007199254740993","memberIds":["7"]}', idReviver(['id', 'memberIds']));
 * // { id: 9007199254740993n, memberIds: [7n] }
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
    if (value === null || key === '' || !isIdKey(key)) return value;
    if (Array.isArray(value)) return value.map((v, i) => parseId(v, `${key}[${i}]`));
    return parseId(value, key);
  };
}
