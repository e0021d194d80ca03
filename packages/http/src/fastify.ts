// @snowkey/http/fastify: ids in Fastify's own idiom, its schemas. Imports nothing from fastify.
import { isIdString } from '@snowkey/core';
import { idErrorBody } from './id-error-body.js';

const MESSAGE =
  'must be an id: a decimal string of digits in 1..2^63-1, without sign, spaces or leading zeros (a JSON number above 2^53 may already have been rounded)';

/** What {@link snowkeyAjv} uses of Ajv. */
export interface AjvLike {
  // `never`: any Ajv's overloads fit; the definition passed is Ajv 8's "validate" keyword form.
  addKeyword(definition: never): unknown;
}

/**
 * An Ajv plugin adding the `snowkeyId` keyword of {@link idParam}. It has no `type`, because
 * Fastify's Ajv would coerce a JSON number, already rounded by `JSON.parse`, into a neighbour's id.
 *
 * @example
 * const app = Fastify({ ajv: { plugins: [snowkeyAjv] } });
 */
export function snowkeyAjv<A extends AjvLike>(ajv: A): A {
  const validate = Object.assign(
    (schema: boolean, data: unknown): boolean => {
      const ok = !schema || isIdString(data);
      validate.errors = ok ? null : [{ keyword: 'snowkeyId', message: MESSAGE, params: { received: data } }];
      return ok;
    },
    { errors: null as unknown },
  );
  ajv.addKeyword({ keyword: 'snowkeyId', schemaType: 'boolean', errors: true, validate } as never);
  return ajv;
}

/** The request schema of an id: a key's decimal string, never coerced (needs {@link snowkeyAjv}). */
export const idParam = Object.freeze({ snowkeyId: true } as const);

/** The response schema of an id: a string (under `integer` the client's `JSON.parse` would round it). */
export const idJson = Object.freeze({ type: 'string' } as const);

/** What {@link idErrorHandler} uses of Fastify's `reply`. */
export interface FastifyReplyLike {
  code(statusCode: number): { send(payload: unknown): unknown };
}

/**
 * A Fastify error handler: a bad id thrown in a handler is a 400 with an {@link IdErrorBody}; every
 * other error is rethrown.
 *
 * @example
 * import { idErrorHandler } from '@snowkey/http/fastify';
 * const app = Fastify();
 * app.setErrorHandler(idErrorHandler);
 */
export function idErrorHandler(error: unknown, _request: unknown, reply: FastifyReplyLike): unknown {
  const body = idErrorBody(error);
  if (!body) throw error;
  return reply.code(400).send(body);
}
