import { idReplacer } from '@snowkey/core';
import { idErrorBody } from './id-error-body.js';

/**
 * `Response.json` that writes every bigint as its exact decimal string (Next.js, Hono, Workers...).
 *
 * @example
 * const res = jsonResponse({ id: 175928847299117063n }, { status: 201 });
 */
export function jsonResponse(data: unknown, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(data, idReplacer), { ...init, headers });
}

/**
 * A 400 `Response` with the {@link IdErrorBody} when `error` is a bad id from the client, else undefined.
 *
 * @example
 * // Hono: app.onError((err, c) => idErrorResponse(err) ?? c.text('Internal Server Error', 500))
 * const bad = idErrorResponse(new Error('db down')); // undefined
 */
export function idErrorResponse(error: unknown): Response | undefined {
  const body = idErrorBody(error);
  return body && jsonResponse(body, { status: 400 });
}
