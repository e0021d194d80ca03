import { InvalidIdError, parseId } from '@snowkey/core';

const JSON_ID_EXPECTED =
  'an id as a JSON string: the decimal digits of a key in 1..2^63-1, in quotes ("42", not 42: a JSON number is refused, as one above 2^53 is already rounded to another key when it is parsed)';

/**
 * Reads an id from a request's JSON: its canonical decimal string. A JSON number is an
 * {@link InvalidIdError} whatever its value: above 2^53 `JSON.parse` has already rounded it.
 *
 * @example
 * parseJsonId('9007199254740993', 'body.id'); // 9007199254740993n
 * parseJsonId(42, 'body.id');                 // InvalidIdError: "body.id" must be an id as a JSON string: ... (received 42)
 */
export function parseJsonId(value: unknown, argument = 'id'): bigint {
  if (typeof value === 'number') throw new InvalidIdError(argument, JSON_ID_EXPECTED, value);
  return parseId(value, argument);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of a JSON body with the named keys, at every depth, parsed by {@link parseJsonId}; a bad
 * id's error names its path (`body.items[2].ownerId`).
 *
 * @example
 * parseJsonIds(JSON.parse('{"id":"7","items":[{"ownerId":"9007199254740993"}]}'), ['id', 'ownerId']);
 * // { id: 7n, items: [{ ownerId: 9007199254740993n }] }
 */
export function parseJsonIds(
  body: unknown,
  keys: Iterable<string> | ((key: string) => boolean),
  argument = 'body',
): unknown {
  const isIdKey =
    typeof keys === 'function'
      ? keys
      : (
          (set) => (k: string) =>
            set.has(k)
        )(new Set(keys));
  const ids = (value: unknown, path: string): unknown => {
    if (value === null) return null;
    if (Array.isArray(value)) return value.map((v, i) => parseJsonId(v, `${path}[${i}]`));
    return parseJsonId(value, path);
  };
  const walk = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (!isPlainObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const at = IDENTIFIER.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
      // defineProperty: a "__proto__" key from JSON stays a plain own property, as JSON.parse made it.
      Object.defineProperty(copy, k, {
        value: isIdKey(k) ? ids(v, at) : walk(v, at),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  };
  return walk(body, argument);
}
