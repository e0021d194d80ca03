// @snowkey/http/express: the one piece Express needs beyond two lines of set-up. Imports nothing
// from express: the shapes below are what the handler uses of its arguments.
import { idErrorBody } from './id-error-body.js';
import { parseJsonIds } from './json-ids.js';

/** What {@link idErrorHandler} uses of Express's `res`. */
export interface ExpressResponseLike {
  readonly headersSent?: boolean;
  status(code: number): { json(body: unknown): unknown };
}

// Not a reviver in express.json: a reviver sees a key but not where it is, and body-parser deletes
// an error's own fields (`argument` among them) before passing it on.
/**
 * Express middleware, after `express.json()`: parses the named keys of `req.body` into bigints
 * with `parseJsonIds`, handing a bad id on to {@link idErrorHandler}.
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
 * Express error middleware, after the routes: a bad id from the client is a 400 with an
 * {@link IdErrorBody}; every other error is handed on.
 *
 * @example
 * import express from 'express';
 * import { idErrorHandler } from '@snowkey/http/express';
 * express().use(idErrorHandler());
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
