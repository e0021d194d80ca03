import { InvalidIdError } from '@snowkey/core';

/** What {@link strictBigints} needs of a superjson instance. */
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
 * A superjson transformer (for tRPC) that refuses a bigint not sent as its canonical decimal
 * string: superjson's `BigInt()` also takes `' 0x10'` and `'1 '`, many spellings of one key.
 *
 * @example
 * import { initTRPC } from '@trpc/server';
 * import superjson from 'superjson';
 * const t = initTRPC.create({ transformer: strictBigints(superjson) });
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
