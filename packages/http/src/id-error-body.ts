import { InvalidIdError, InvalidPublicIdError } from '@snowkey/core';

/**
 * The JSON body every `@snowkey/http` helper answers a bad id with, under status 400.
 *
 * @example
 * const body: IdErrorBody = { error: 'InvalidIdError', argument: 'params.id', message: '"params.id" must be ...' };
 */
export interface IdErrorBody {
  /** `InvalidIdError`, or `InvalidPublicIdError` for a public id. */
  readonly error: string;
  /** Where the id was read (`params.id`, `body.ownerId`), when known. */
  readonly argument?: string;
  /** What was wrong, what was received and what was expected. */
  readonly message: string;
}

const NAMES = new Set(['InvalidIdError', 'InvalidPublicIdError']);

/**
 * The 400 body for `error` when it is a bad id from the client (an `InvalidIdError` from
 * `parseId`, `parseJsonIds` or a public-id codec), else undefined: anything else is not the client's
 * fault and stays a 500. Matches by class, and by name for a second copy of `@snowkey/core`
 * (ESM and CJS side by side). For a framework this package has no helper for.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(async (req, res) => { // node:http: GET /players/<id>
 *   try {
 *     const player = await findPlayer(parseId(req.url?.split('/')[2], 'params.id'));
 *     res.writeHead(player ? 200 : 404, { 'content-type': 'application/json' });
 *     res.end(JSON.stringify(player ?? { error: 'not found' }, idReplacer));
 *   } catch (err) {
 *     const body = idErrorBody(err); // a bad id: the client's 400; anything else: a 500
 *     res.writeHead(body ? 400 : 500, { 'content-type': 'application/json' });
 *     res.end(JSON.stringify(body ?? { error: 'internal error' }));
 *   }
 * });
 */
export function idErrorBody(error: unknown): IdErrorBody | undefined {
  let name: string;
  // By class first: body-parser (Express) strips an error's own fields, \`name\` included, before it
  // hands on a reviver's error; the prototype survives.
  if (error instanceof InvalidPublicIdError) name = 'InvalidPublicIdError';
  else if (error instanceof InvalidIdError) name = 'InvalidIdError';
  else if (error instanceof Error && NAMES.has(error.name)) name = error.name;
  else return undefined;
  const { argument } = error as { argument?: unknown };
  return {
    error: name,
    ...(typeof argument === 'string' ? { argument } : {}),
    message: error.message,
  };
}
