import type { ClientPlan } from './client-plan.js';
import { delegateName } from './data-model.js';
import { createIdFiller, type IdFiller, isFilledOperation } from './fill-ids.js';
import { forwardingProxy } from './forwarding-proxy.js';
import type { ResolvedOptions } from './options.js';

type AnyObject = Record<PropertyKey, unknown>;

/**
 * `client` behind a proxy that fills snowflake ids into the arguments of its model writes before
 * Prisma sees them (copying only the objects on the way to an id), and hands every other call to
 * the client as it is, the writes of models that can hold no snowflake id included. `$parent`
 * reads `parent` when given (else the client's own).
 */
export function attachWrapper<C extends object>(
  client: C,
  { plan, models }: ClientPlan,
  options: ResolvedOptions,
  parent?: object,
): C {
  const filler = createIdFiller(plan, options.generator, true);
  const delegates = new Map<PropertyKey, string>(models.map((m) => [delegateName(m), m]));
  return wrapClient(client, filler, delegates, parent);
}

/** Refusals (a bad caller id, a broken generator) as rejected promises, recognised by `$transaction`. */
const refusals = new WeakSet<Promise<unknown>>();

function wrapClient<C extends object>(
  client: C,
  filler: IdFiller,
  models: Map<PropertyKey, string>,
  parent: object | undefined,
): C {
  const delegates = new Map<PropertyKey, unknown>();
  let transactionFn: TransactionFn | undefined;
  let extendsFn: ((...args: unknown[]) => unknown) | undefined;
  const proxy: C = forwardingProxy(client, (prop) => {
    const model = models.get(prop);
    if (model !== undefined) {
      let delegate = delegates.get(prop);
      if (delegate === undefined) {
        delegate = wrapDelegate(Reflect.get(client, prop) as AnyObject, model, filler);
        delegates.set(prop, delegate);
      }
      return delegate;
    }
    if (prop === '$parent' && parent !== undefined) return parent;
    const value = Reflect.get(client, prop);
    if (typeof value !== 'function') return value;
    if (prop === '$transaction') {
      transactionFn ??= transaction(value as TransactionFn, client, filler, models);
      return transactionFn;
    }
    if (prop === '$extends') {
      // Prisma's own $extends, called on the proxy: a dynamic extension receives the proxy (so
      // what it builds fills), and the new client's `$parent` is the proxy. An object extension's
      // client is wrapped again; a dynamic one's result is whatever the function made of the proxy.
      extendsFn ??= (...args: unknown[]) => {
        const extended = (value as (...a: unknown[]) => object).apply(proxy, args);
        return typeof args[0] === 'function' ? extended : wrapClient(extended, filler, models, undefined);
      };
      return extendsFn;
    }
    // Unbound, as Prisma hands out its own: a client extension's method called on the proxy gets
    // the proxy as `this`, so `Prisma.getExtensionContext(this).player.create(...)` fills.
    return value;
  });
  return proxy;
}

type TransactionFn = (arg: unknown, options?: unknown) => Promise<unknown>;

/** `$transaction`: the interactive form's `tx` is wrapped too; an array holding a refusal rejects with it. */
function transaction(
  original: TransactionFn,
  target: object,
  filler: IdFiller,
  models: Map<PropertyKey, string>,
): TransactionFn {
  return (arg, options) => {
    if (typeof arg === 'function') {
      const work = arg as (tx: object) => unknown;
      return original.call(target, (tx: object) => work(wrapClient(tx, filler, models, undefined)), options);
    }
    if (Array.isArray(arg)) {
      const refused = arg.find((p) => refusals.has(p));
      if (refused) return refused;
    }
    return original.call(target, arg, options);
  };
}

function wrapDelegate(delegate: AnyObject, model: string, filler: IdFiller): AnyObject {
  const methods = new Map<PropertyKey, unknown>();
  return forwardingProxy(delegate, (prop) => {
    const known = methods.get(prop);
    if (known !== undefined) return known;
    const value = Reflect.get(delegate, prop);
    if (!isFilledOperation(prop) || typeof value !== 'function') return value;
    const operation = prop;
    const write = value as (args: unknown) => unknown;
    const method = (args: unknown) => {
      let filled: unknown;
      try {
        filled = filler.fill(model, operation, args);
      } catch (error) {
        const refusal = Promise.reject(error);
        refusals.add(refusal);
        return refusal;
      }
      return write.call(delegate, filled);
    };
    methods.set(prop, method);
    return method;
  });
}
