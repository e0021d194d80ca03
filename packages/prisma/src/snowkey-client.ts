import { clientFiller } from './client-filler.js';
import { type IdFiller, isFilledOperation } from './fill-ids.js';
import { resolveOptions, type SnowkeyPrismaOptions } from './options.js';

type AnyObject = Record<PropertyKey, unknown>;

/**
 * The same client, filling snowflake ids before Prisma sees the arguments: the writes and rules of
 * the {@link snowkey} extension (every kind of create, nested writes at any depth, both forms of
 * `$transaction`, a caller's id kept), without a Prisma query extension. Prisma runs every call of
 * an extended client through its extension layer, which deep-copies the arguments and looks up
 * its extensions on each call; here snowkey copies only the objects on the way to the ids it
 * writes (your objects are never changed) and hands every other call to the client as it is,
 * which makes a one-row `create` cheaper (see the package README). The extension is the form
 * that composes with other extensions through `$extends`; this one also keeps filling on a
 * client you `$extends` afterwards, and on the `tx` of an interactive transaction.
 *
 * `options.models` is checked against the client's data model at once ({@link SnowflakeFieldError}).
 * A refused caller id rejects the returned promise, as the extension's does, before any SQL.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { snowkeyClient } from '@snowkey/prisma';
 * import { PrismaClient } from './generated/prisma/client.js';
 *
 * const prisma = snowkeyClient(new PrismaClient({ adapter }), {
 *   generator: new Snowflake({ workerId: 1 }),
 *   models: { Player: 'id', Match: 'id' },
 * });
 * const player = await prisma.player.create({ data: { name: 'Aria' } }); // player.id: bigint
 */
export function snowkeyClient<Client extends object, ModelName extends string = string>(
  client: Client,
  options: SnowkeyPrismaOptions<ModelName>,
): Client {
  const { filler, dataModel } = clientFiller(client, resolveOptions(options), true);
  // Prisma names a model's delegate after the model, first letter in lower case.
  const models = new Map<PropertyKey, string>(
    Object.keys(dataModel.models).map((name) => [name.charAt(0).toLowerCase() + name.slice(1), name]),
  );
  return wrapClient(client, filler, models);
}

/** Refusals (a bad caller id, a broken generator) as rejected promises, recognised by `$transaction`. */
const refusals = new WeakSet<Promise<unknown>>();

function wrapClient<C extends object>(client: C, filler: IdFiller, models: Map<PropertyKey, string>): C {
  const delegates = new Map<PropertyKey, unknown>();
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, prop) {
      const model = models.get(prop);
      if (model !== undefined) {
        let delegate = delegates.get(prop);
        if (delegate === undefined) {
          delegate = wrapDelegate(Reflect.get(target, prop) as AnyObject, model, filler);
          delegates.set(prop, delegate);
        }
        return delegate;
      }
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      let fn = bound.get(prop);
      if (fn === undefined) {
        fn =
          prop === '$transaction'
            ? transaction(value as TransactionFn, target, filler, models)
            : prop === '$extends'
              ? (...args: unknown[]) =>
                  wrapClient((value as (...a: unknown[]) => object).apply(target, args), filler, models)
              : (value as (...a: unknown[]) => unknown).bind(target);
        bound.set(prop, fn);
      }
      return fn;
    },
  });
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
      return original.call(target, (tx: object) => work(wrapClient(tx, filler, models)), options);
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
  return new Proxy(delegate, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (!isFilledOperation(prop) || typeof value !== 'function') return value;
      let method = methods.get(prop);
      if (method === undefined) {
        const operation = prop;
        const write = value as (args: unknown) => unknown;
        method = (args: unknown) => {
          let filled: unknown;
          try {
            filled = filler.fill(model, operation, args);
          } catch (error) {
            const refusal = Promise.reject(error);
            refusals.add(refusal);
            return refusal;
          }
          return write.call(target, filled);
        };
        methods.set(prop, method);
      }
      return method;
    },
  });
}
