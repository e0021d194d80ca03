import { InvalidIdError } from './errors.js';
import { isKey, KEY_EXPECTED } from './id-rule.js';

declare const idStringBrand: unique symbol;

/**
 * An id on the wire: the canonical decimal string of a key (1..2^63-1, digits only, no sign, no
 * leading zeros). Branded, so a raw `string` from a request cannot be passed where an id is meant
 * without going through {@link parseId} / {@link isIdString}, and an `IdString` only comes from
 * {@link toIdString} or a check.
 *
 * @example
 * interface PlayerJson { id: IdString; name: string }
 * const ok: PlayerJson = { id: toIdString(175928847299117063n), name: 'Aria' };
 * // const bad: PlayerJson = { id: req.params.id, name: 'Aria' }; // compile error: string is not IdString
 */
export type IdString = string & { readonly [idStringBrand]: 'IdString' };

/** 2^64-1 has 20 digits: a longer string is refused before BigInt() spends time on it. */
const MAX_DIGITS = 20;
const DIGITS = /^(0|[1-9][0-9]*)$/;

/** The wire rule, said once for every message. */
const ID_EXPECTED = `${KEY_EXPECTED}: a decimal string of digits (no sign, spaces, leading zeros or fraction), a bigint, or a safe integer Number`;

/**
 * Reads a non-negative integer strictly: a bigint, a canonical decimal string, or a safe integer
 * Number. The syntax half of {@link parseId}; `decode` uses it with its layout's width instead of
 * the key range. Returns undefined for anything else (the caller words the error).
 */
export function readUnsignedId(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'string') {
    return value.length <= MAX_DIGITS && DIGITS.test(value) ? BigInt(value) : undefined;
  }
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  return undefined;
}

/**
 * Parses an id from the edge of the system (JSON, a URL, a form, a driver's row) into a key,
 * strictly. It takes a bigint, a decimal string of digits without sign, spaces, leading zeros or
 * fraction, or a safe integer Number, and the value must be a key: 1..2^63-1, the range of
 * `isKey` / `MAX_KEY` (`@snowkey/core/adapter`), the same rule every adapter applies to the ids it
 * writes. So `parseId` never returns a value an adapter would refuse, and `'0'`, `'-1'`, `'007'`,
 * `'1e3'`, `' 42'`, `'9223372036854775808'` (2^63) and a Number above 2^53-1 (it may already have
 * been rounded to a neighbour's id) are all an {@link InvalidIdError} naming `argument` and what it got.
 *
 * To decode an id of an `unsigned` 64-bit layout above 2^63-1, use `decode`, which takes its
 * layout's full width; such an id is not a key any adapter writes.
 *
 * @example
 * parseId('175928847299117063');          // 175928847299117063n
 * parseId(req.params.id, 'params.id');    // InvalidIdError: "params.id" must be a bigint in 1..2^63-1: ... (received "0175928847299117063")
 * parseId(2 ** 53);                       // InvalidIdError: not a safe integer, it may already have lost precision
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
 * Whether `value` is an id on the wire: the canonical decimal string of a key, exactly what
 * {@link toIdString} writes. A type guard, for validators and tests; it never throws.
 *
 * @example
 * isIdString('9223372036854775807'); // true
 * isIdString('9223372036854775808'); // false: 2^63 is not a key
 * isIdString('042');                 // false: not canonical
 */
export function isIdString(value: unknown): value is IdString {
  if (typeof value !== 'string') return false;
  const id = readUnsignedId(value);
  return id !== undefined && isKey(id);
}

/**
 * Formats a key for the wire (JSON, URLs) as its canonical decimal string, after checking it is a
 * key (a bigint in 1..2^63-1); anything else is an {@link InvalidIdError}.
 *
 * @example
 * toIdString(175928847299117063n); // '175928847299117063' (an IdString)
 */
export function toIdString(id: bigint, argument = 'id'): IdString {
  if (!isKey(id)) throw new InvalidIdError(argument, KEY_EXPECTED, id);
  return id.toString() as IdString;
}

/**
 * A `JSON.stringify` replacer that writes every bigint as its exact decimal string (plain
 * `JSON.stringify` throws "Do not know how to serialize a BigInt"). Every other value is left as it is.
 * Use it wherever a framework lets you set one (Express: `app.set('json replacer', idReplacer)`).
 *
 * @example
 * JSON.stringify({ id: 9223372036854775807n }, idReplacer); // '{"id":"9223372036854775807"}'
 */
export function idReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * Builds a `JSON.parse` reviver that turns the values of the named keys (`id`, `ownerId`...) back
 * into bigint through {@link parseId}: an id string, or an array of them (`memberIds`). A value that
 * is not an id throws {@link InvalidIdError} naming the key; `null` stays `null`; other keys are
 * left alone. The keys are matched at every depth.
 *
 * @example
 * JSON.parse('{"id":"9007199254740993","memberIds":["7"],"name":"Aria"}', idReviver(['id', 'memberIds']));
 * // { id: 9007199254740993n, memberIds: [7n], name: 'Aria' }
 * JSON.parse('{"id":9007199254740993}', idReviver(['id']));
 * // InvalidIdError: "id" must be ... (a Number above 2^53-1 may already have lost precision) (received 9007199254740992)
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
