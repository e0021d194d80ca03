import { InvalidIdError } from '@snowkey/core';

/**
 * What {@link strictBigints} needs of a superjson instance (the default export of `superjson`,
 * or `new SuperJSON()`).
 *
 * @example
 * import superjson from 'superjson';
 * const sj: SuperjsonLike = superjson;
 */
export interface SuperjsonLike {
  serialize(value: unknown): { json: unknown; meta?: unknown };
  deserialize<T = unknown>(payload: { json: unknown; meta?: unknown }): T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Checks that every bigint in `value` was written in `raw` (superjson's json, same shape) as its own decimal string. */
function checkCanonical(value: unknown, raw: unknown, path: string): void {
  if (typeof value === 'bigint') {
    if (raw !== value.toString()) {
      throw new InvalidIdError(
        path || 'input',
        `a bigint written as its canonical decimal string ("${value}")`,
        raw,
      );
    }
    return;
  }
  const at = (i: number | string) =>
    raw !== null && typeof raw === 'object' ? (raw as never)[i] : undefined;
  if (value instanceof Map) {
    [...value].forEach(([k, v], i) => {
      const entry = at(i) as unknown;
      const pair = Array.isArray(entry) ? entry : [];
      checkCanonical(k, pair[0], `${path}[${i}].key`);
      checkCanonical(v, pair[1], `${path}[${i}].value`);
    });
  } else if (value instanceof Set) {
    [...value].forEach((v, i) => {
      checkCanonical(v, at(i), `${path}[${i}]`);
    });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      checkCanonical(v, at(i), `${path}[${i}]`);
    });
  } else if (isPlainObject(value)) {
    for (const k of Object.keys(value)) checkCanonical(value[k], at(k), path ? `${path}.${k}` : k);
  }
}

/**
 * Wraps a superjson instance into a transformer (tRPC's `transformer` option takes it as it is)
 * that keeps its bigint round trip, and refuses a bigint that did not arrive as its own canonical
 * decimal string. superjson alone revives bigints with `BigInt()`, which also takes `' 0x10'`,
 * `'0b1'` and `'1 '`: so one key would have many spellings. The refusal is an `InvalidIdError`
 * naming the path (`id`, `items[2].ownerId`); tRPC answers it with a 400. Range and sign are the
 * procedure's input check: `parseId` in the input parser.
 *
 * @example
 * import { initTRPC } from '@trpc/server';
 * import superjson from 'superjson';
 * const t = initTRPC.create({ transformer: strictBigints(superjson) });
 * const getPlayer = t.procedure
 *   .input((raw) => ({ id: parseId((raw as { id?: unknown }).id, 'id') }))
 *   .query(({ input }) => findPlayer(input.id)); // input.id: bigint
 */
export function strictBigints<S extends SuperjsonLike>(superjson: S): SuperjsonLike {
  return {
    serialize: (value) => superjson.serialize(value),
    deserialize: <T>(payload: { json: unknown; meta?: unknown }): T => {
      const value = superjson.deserialize<T>(payload);
      checkCanonical(value, payload?.json, '');
      return value;
    },
  };
}
