import { InvalidIdError, InvalidPublicIdError } from '@snowkey/core';

/** The JSON body every `@snowkey/http` helper answers a bad id with, under status 400. */
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
 * The 400 body for `error` when it is a bad id from the client, else undefined (a 500).
 *
 * @example
 * const body = idErrorBody(new Error('db down')); // undefined: not the client's fault
 */
export function idErrorBody(error: unknown): IdErrorBody | undefined {
  let name: string;
  // By class first: body-parser (Express) strips an error's own fields, \`name\` included, before it
  // hands on a reviver's error; the prototype survives. By name for a second copy of @snowkey/core.
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
