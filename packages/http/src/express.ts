// @snowkey/http/express: the one piece Express needs beyond two lines of set-up. Imports nothing
// from express: the shapes below are what the handler uses of its arguments.
import { idErrorBody } from './id-error-body.js';

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
 * Express error middleware that answers a bad id from the client (an `InvalidIdError` from
 * `parseId` in a handler, from `idReviver` in `express.json`, or from a public-id codec) with 400
 * and an {@link IdErrorBody}, and hands every other error on. Register it after the routes.
 *
 * @example
 * import express from 'express';
 * import { idReplacer, idReviver, parseId } from '@snowkey/core';
 * import { idErrorHandler } from '@snowkey/http/express';
 * const app = express();
 * app.set('json replacer', idReplacer);                        // bigint out: exact decimal strings
 * app.use(express.json({ reviver: idReviver(['ownerId']) }));  // id strings in: bigint, strictly
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
