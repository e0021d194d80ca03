// @snowkey/http/fastify: ids in Fastify's own idiom, its schemas. Imports nothing from fastify.
import { isIdString } from '@snowkey/core';
import { idErrorBody } from './id-error-body.js';

const MESSAGE =
  'must be an id: a decimal string of digits in 1..2^63-1, without sign, spaces or leading zeros (a JSON number above 2^53 may already have been rounded)';

/**
 * What {@link snowkeyAjv} uses of Ajv.
 *
 * @example
 * import { Ajv } from 'ajv';
 * const ajv: AjvLike = new Ajv(); // Ajv 8, the one Fastify 5 uses
 */
export interface AjvLike {
  // `never`: any Ajv's overloads fit; the definition passed is Ajv 8's "validate" keyword form.
  addKeyword(definition: never): unknown;
}

/**
 * An Ajv plugin for Fastify's `ajv.plugins` option: adds the `snowkeyId` keyword that
 * {@link idParam} uses. Fastify's Ajv coerces types, so a schema of `{ type: 'string' }` would turn
 * the JSON number 9007199254740993 (already 9007199254740992 after `JSON.parse`) into the string
 * "9007199254740992": the neighbour's id. `snowkeyId` has no `type`, so nothing is coerced, and it
 * accepts only the canonical decimal string of a key (`isIdString`).
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

/**
 * The request schema of an id (in `params`, `querystring` or `body`): the canonical decimal
 * string of a key, checked without coercion (needs {@link snowkeyAjv}). Anything else is
 * Fastify's own 400 (`FST_ERR_VALIDATION`) naming the field. Turn the string into a key with
 * `parseId` in the handler.
 *
 * @example
 * const app = Fastify({ ajv: { plugins: [snowkeyAjv] } });
 * app.get(
 *   '/players/:id',
 *   { schema: { params: { type: 'object', properties: { id: idParam }, required: ['id'] } } },
 *   async (req) => findPlayer(parseId((req.params as { id: string }).id, 'params.id')),
 * );
 */
export const idParam = Object.freeze({ snowkeyId: true } as const);

/**
 * The response schema of an id: Fastify's serializer (fast-json-stringify) writes a bigint under
 * `type: 'string'` as its exact decimal string. (Under `type: 'integer'` it writes a bare JSON
 * number, which the client's `JSON.parse` rounds above 2^53.)
 *
 * @example
 * const response = { 200: { type: 'object', properties: { id: idJson, name: { type: 'string' } } } };
 */
export const idJson = Object.freeze({ type: 'string' } as const);

/**
 * What {@link idErrorHandler} uses of Fastify's `reply`.
 *
 * @example
 * const reply: FastifyReplyLike = fastifyReply;
 */
export interface FastifyReplyLike {
  code(statusCode: number): { send(payload: unknown): unknown };
}

/**
 * A Fastify error handler that answers a bad id thrown in a handler (`parseId`, a public-id
 * codec) with 400 and an {@link IdErrorBody}; every other error is rethrown to Fastify's default
 * handling. For routes whose ids are not all checked by a schema.
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
