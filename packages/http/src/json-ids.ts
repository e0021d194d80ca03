import { InvalidIdError, parseId } from '@snowkey/core';

const JSON_ID_EXPECTED =
  'an id as a JSON string: the decimal digits of a key in 1..2^63-1, in quotes ("42", not 42: a JSON number is refused, as one above 2^53 is already rounded to another key when it is parsed)';

/**
 * Reads an id that came in a request's JSON: its canonical decimal string (or a `bigint`, as
 * superjson revives one). A JSON number is an {@link InvalidIdError} whatever its value, `42` and
 * `4.2e1` as much as `9007199254740993` (which `JSON.parse` has already made `9007199254740992`): ids
 * cross JSON as strings, so a number is a client bug that would one day hit the wrong row.
 * Everything else is `parseId`'s rule.
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
 * A copy of a parsed JSON request body with the values of the named keys (`id`, `ownerId`,
 * `memberIds`...) turned into bigints by {@link parseJsonId}, at every depth: an id string, or an
 * array of them; `null` stays `null`. A bad id is an {@link InvalidIdError} naming its path from
 * `argument`: `body.id`, `body.items[2].ownerId`, `body.memberIds[0]`. Other keys are copied as
 * they are; the body passed in is not changed.
 *
 * @example
 * parseJsonIds(JSON.parse('{"id":"7","items":[{"ownerId":"9007199254740993"}]}'), ['id', 'ownerId']);
 * // { id: 7n, items: [{ ownerId: 9007199254740993n }] }
 * parseJsonIds({ items: [{ ownerId: 42 }] }, ['ownerId']);
 * // InvalidIdError: "body.items[0].ownerId" must be an id as a JSON string: ... (received 42)
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
