/**
 * A proxy that stands for `real`: reads go to `get`, every other operation to `real` itself.
 *
 * Its target is an empty object of its own, not `real`. The language checks each `get` trap's
 * result against the proxy's target, and Prisma's clients and model delegates are proxies
 * themselves: with `real` as the target, every read ran `real`'s `getOwnPropertyDescriptor` trap
 * once more, about 6k instructions (a one-row `create` reads two: the model, then its method).
 * Against an empty target the check is a miss on an ordinary object.
 *
 * The invariants still hold: a property `real` reports as non-configurable is copied onto the
 * target each time it is reported, as a proxy must have it there, so the copy follows what `real`
 * may still change (its value, or writable to read-only); the target stays extensible.
 * Calls of a function read through the proxy keep the proxy as `this`, and stack frames still
 * name it `Proxy`.
 */
export function forwardingProxy<T extends object>(real: T, get: (prop: PropertyKey) => unknown): T {
  const target = {} as T;
  const pinned = (prop: PropertyKey, found: PropertyDescriptor | undefined) => {
    if (found && !found.configurable) Object.defineProperty(target, prop, found);
    return found;
  };
  return new Proxy(target, {
    get: (_target, prop) => get(prop),
    set: (_target, prop, value) => Reflect.set(real, prop, value),
    has: (_target, prop) => Reflect.has(real, prop),
    deleteProperty: (_target, prop) => Reflect.deleteProperty(real, prop),
    ownKeys: () => Reflect.ownKeys(real),
    getOwnPropertyDescriptor: (_target, prop) => pinned(prop, Reflect.getOwnPropertyDescriptor(real, prop)),
    defineProperty: (_target, prop, descriptor) => {
      if (!Reflect.defineProperty(real, prop, descriptor)) return false;
      pinned(prop, Reflect.getOwnPropertyDescriptor(real, prop));
      return true;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real),
  });
}
