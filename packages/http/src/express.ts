// @snowkey/http/express: the one piece Express needs beyond two lines of set-up. Imports nothing
// from express: the shapes below are what the handler uses of its arguments.
import { idErrorBody } from './id-error-body.js';
import { parseJsonIds } from './json-ids.js';

/**
 * What {@link idErrorHandler} uses of Express's `res`.
 *
 * @example
 * const res: ExpressResponseLike = expressResponse;
 */
export interface ExpressResponseLike {
  readonly headersSent?: boolean;
  status(code: number): { json(body: unknown): unknown };
}

/**
 * Express middleware, after `express.json()`: turns the values of the named keys of `req.body`
 * into bigints with `parseJsonIds` (id strings only: a JSON number is refused), at every depth, and
 * hands a bad id on as an `InvalidIdError` naming its path (`body.id`, `body.items[0].ownerId`) for
 * {@link idErrorHandler}. (A reviver in `express.json` cannot do this: it sees a key but not where
 * it is, and body-parser deletes an error's own fields, `argument` among them, before passing it on.)
 *
 * @example
 * import express from 'express';
 * import { bodyIds } from '@snowkey/http/express';
 * const app = express();
 * app.use(express.json(), bodyIds(['id', 'ownerId']));
 */
export function bodyIds(keys: Iterable<string> | ((key: string) => boolean)) {
  const isIdKey =
    typeof keys === 'function'
      ? keys
      : (
          (set) => (k: string) =>
            set.has(k)
        )(new Set(keys));
  return function snowkeyBodyIds(
    req: { body?: unknown },
    _res: unknown,
    next: (err?: unknown) => void,
  ): void {
    try {
      req.body = parseJsonIds(req.body, isIdKey, 'body');
    } catch (err) {
      next(err);
      return;
    }
    next();
  };
}

/**
 * Express error middleware that answers a bad id from the client (an `InvalidIdError` from
 * {@link bodyIds}, from `parseId` in a handler, or from a public-id codec) with 400 and an
 * {@link IdErrorBody}, and hands every other error on. Register it after the routes.
 *
 * @example
 * import express from 'express';
 * import { idReplacer, parseId } from '@snowkey/core';
 * import { bodyIds, idErrorHandler } from '@snowkey/http/express';
 * const app = express();
 * app.set('json replacer', idReplacer);                  // bigint out: exact decimal strings
 * app.use(express.json(), bodyIds(['ownerId']));         // id strings in: bigint, strictly
 * app.get('/players/:id', async (req, res) => {
 *   res.json(await findPlayer(parseId(req.params.id, 'params.id')));
 * });
 * app.use(idErrorHandler());
 */
export function idErrorHandler() {
  return function snowkeyIdErrors(
    err: unknown,
    _req: unknown,
    res: ExpressResponseLike,
    next: (err?: unknown) => void,
  ): void {
    const body = idErrorBody(err);
    if (!body || res.headersSent) {
      next(err);
      return;
    }
    res.status(400).json(body);
  };
}
