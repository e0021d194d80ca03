import { idReplacer } from '@snowkey/core';
import { idErrorBody } from './id-error-body.js';

/**
 * `Response.json` for data that holds ids: every bigint is written as its exact decimal string
 * (plain `Response.json` throws on a bigint, and a Number would be rounded by the client's
 * `JSON.parse`). Uses the global `Response`, so it works in Next.js route handlers, Hono, Remix,
 * SvelteKit, Workers, Deno and Bun alike. `content-type` defaults to `application/json`.
 *
 * @example
 * // app/players/[id]/route.ts (Next.js)
 * export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
 *   const player = await findPlayer(parseId((await params).id, 'params.id'));
 *   return player ? jsonResponse(player) : jsonResponse({ error: 'not found' }, { status: 404 });
 * }
 */
export function jsonResponse(data: unknown, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(data, idReplacer), { ...init, headers });
}

/**
 * A 400 `Response` with the {@link IdErrorBody} when `error` is a bad id from the client, else
 * undefined. Hono: `app.onError((err, c) => idErrorResponse(err) ?? c.text('Internal Server Error', 500))`.
 *
 * @example
 * export async function POST(req: Request) { // a Next.js route handler
 *   try {
 *     const body = parseJsonIds(await req.json(), ['ownerId']);
 *     return jsonResponse(await createItem(body), { status: 201 });
 *   } catch (err) {
 *     const bad = idErrorResponse(err);
 *     if (bad) return bad;
 *     throw err;
 *   }
 * }
 */
export function idErrorResponse(error: unknown): Response | undefined {
  const body = idErrorBody(error);
  return body && jsonResponse(body, { status: 400 });
}
