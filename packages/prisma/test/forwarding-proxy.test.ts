import { describe, expect, test } from 'vitest';
import { forwardingProxy } from '../src/forwarding-proxy.js';

/** An object behind a proxy that counts its traps, as Prisma's clients and delegates are proxies. */
function countedReal() {
  const calls: string[] = [];
  const real = new Proxy<Record<PropertyKey, unknown>>(
    { kept: 1, method() {} },
    {
      getOwnPropertyDescriptor(target, prop) {
        calls.push(`getOwnPropertyDescriptor ${String(prop)}`);
        return Reflect.getOwnPropertyDescriptor(target, prop);
      },
    },
  );
  return { real, calls };
}

describe('forwardingProxy', () => {
  test('GIVEN reads THEN they are answered by `get` and never ask the real object for a descriptor', () => {
    const { real, calls } = countedReal();
    const read: PropertyKey[] = [];
    const proxy = forwardingProxy(real, (prop) => {
      read.push(prop);
      return Reflect.get(real, prop);
    });
    expect(proxy.kept).toBe(1);
    expect(proxy.method).toBe(real.method);
    expect(read).toEqual(['kept', 'method']);
    // With the real object as the proxy's target, each read ran this trap once more.
    expect(calls).toEqual([]);
    const plain = new Proxy(real, { get: (target, prop) => Reflect.get(target, prop) });
    void plain.kept;
    expect(calls).toEqual(['getOwnPropertyDescriptor kept']);
  });

  test('GIVEN writes, deletes, `in`, keys, descriptors and the prototype THEN they act on the real object', () => {
    class Real {
      kept = 1;
    }
    const real = new Real() as Real & Record<string, unknown>;
    const proxy = forwardingProxy(real, (prop) => Reflect.get(real, prop)) as Real & Record<string, unknown>;
    proxy.added = 2;
    expect(real.added).toBe(2);
    expect('added' in proxy && 'kept' in proxy && !('absent' in proxy)).toBe(true);
    expect(Reflect.ownKeys(proxy)).toEqual(['kept', 'added']);
    expect({ ...proxy }).toEqual({ kept: 1, added: 2 });
    expect(delete proxy.added).toBe(true);
    expect(Object.hasOwn(real, 'added')).toBe(false);
    Object.defineProperty(proxy, 'defined', {
      value: 3,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(real.defined).toBe(3);
    expect(Object.getOwnPropertyDescriptor(proxy, 'kept')).toEqual(
      Object.getOwnPropertyDescriptor(real, 'kept'),
    );
    expect(Object.getPrototypeOf(proxy)).toBe(Real.prototype);
    expect(proxy instanceof Real).toBe(true);
  });

  test('GIVEN a non-configurable property of the real object THEN it is reported and defined without breaking the invariants', () => {
    const real: Record<string, unknown> = {};
    Object.defineProperty(real, 'fixed', { value: 'f', enumerable: true });
    const proxy = forwardingProxy(real, (prop) => Reflect.get(real, prop));
    expect(Object.getOwnPropertyDescriptor(proxy, 'fixed')).toEqual({
      value: 'f',
      writable: false,
      enumerable: true,
      configurable: false,
    });
    expect(Reflect.ownKeys(proxy)).toEqual(['fixed']);
    expect(proxy.fixed).toBe('f');
    Object.defineProperty(proxy, 'sealed', { value: 's', enumerable: true });
    expect(Object.getOwnPropertyDescriptor(real, 'sealed')?.configurable).toBe(false);
    expect(Object.getOwnPropertyDescriptor(proxy, 'sealed')?.value).toBe('s');
    // A redefinition the real object refuses is refused through the proxy too.
    expect(() => Object.defineProperty(proxy, 'fixed', { value: 'g' })).toThrow(TypeError);
    expect(real.fixed).toBe('f');
  });

  test('GIVEN a non-configurable property the real object changes after it was reported THEN the proxy reports the change', () => {
    const real: Record<string, unknown> = {};
    Object.defineProperty(real, 'open', { value: 1, writable: true, enumerable: true });
    const proxy = forwardingProxy(real, (prop) => Reflect.get(real, prop));
    expect(Object.getOwnPropertyDescriptor(proxy, 'open')?.value).toBe(1);
    real.open = 2;
    expect(Object.getOwnPropertyDescriptor(proxy, 'open')?.value).toBe(2);
    // Writable to read-only is the one change a non-configurable property still allows.
    Object.defineProperty(real, 'open', { value: 3, writable: false });
    expect(Object.getOwnPropertyDescriptor(proxy, 'open')).toEqual({
      value: 3,
      writable: false,
      enumerable: true,
      configurable: false,
    });
    expect(proxy.open).toBe(3);
  });
});
