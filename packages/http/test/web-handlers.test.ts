import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { parseId } from '@snowkey/core';
import { idErrorResponse, jsonResponse, parseJsonIds } from '@snowkey/http';
import { Hono } from 'hono';
import { listen } from './support/listen.js';
import { knexPlayerStore, type Player, type PlayerStore } from './support/player-store.js';
import { describeIdRoundTrip, playerIds } from './support/round-trip.js';

// Response-based handlers with @snowkey/http's jsonResponse and idErrorResponse: Hono on
// @hono/node-server, and route handlers in the Next.js App Router's shape (exported GET/POST
// functions taking a Request and `{ params }` as a promise), on Knex through @snowkey/knex.
const view = (p: Player) => ({ id: p.id, publicId: playerIds.encode(p.id), name: p.name });
const notFound = () => jsonResponse({ error: 'not found' }, { status: 404 });

async function startHono(store: PlayerStore) {
  const app = new Hono();
  app.onError((err, c) => idErrorResponse(err) ?? c.text('Internal Server Error', 500));
  app.post('/players', async (c) => {
    const { name } = await c.req.json<{ name: string }>();
    return jsonResponse(view(await store.create(name)), { status: 201 });
  });
  app.get('/players/:id', async (c) => {
    const found = await store.find(parseId(c.req.param('id'), 'params.id'));
    return found ? jsonResponse(view(found)) : notFound();
  });
  app.post('/players/rename', async (c) => {
    const body = parseJsonIds(await c.req.json(), ['id']) as { id: unknown; name: string };
    const id = parseId(body.id, 'body.id');
    return (await store.rename(id, body.name)) ? jsonResponse({ id, name: body.name }) : notFound();
  });
  app.get('/public/players/:publicId', async (c) => {
    const found = await store.find(playerIds.decode(c.req.param('publicId'), 'params.publicId'));
    return found ? jsonResponse(view(found)) : notFound();
  });
  return listen(createAdaptorServer({ fetch: app.fetch }) as Server);
}

/** The route modules of a Next.js app, as it would export them (app/players/[id]/route.ts ...). */
function nextRoutes(store: PlayerStore) {
  /** What a route handler does with its errors: a bad id is the client's 400, the rest stays a 500. */
  const guarded =
    <A extends unknown[]>(handler: (...args: A) => Promise<Response>) =>
    async (...args: A) => {
      try {
        return await handler(...args);
      } catch (err) {
        const bad = idErrorResponse(err);
        if (bad) return bad;
        throw err;
      }
    };
  type Params<K extends string> = { params: Promise<Record<K, string>> };
  return {
    'players/route.ts': {
      POST: guarded(async (req: Request) => {
        const { name } = (await req.json()) as { name: string };
        return jsonResponse(view(await store.create(name)), { status: 201 });
      }),
    },
    'players/[id]/route.ts': {
      GET: guarded(async (_req: Request, { params }: Params<'id'>) => {
        const found = await store.find(parseId((await params).id, 'params.id'));
        return found ? jsonResponse(view(found)) : notFound();
      }),
    },
    'players/rename/route.ts': {
      POST: guarded(async (req: Request) => {
        const body = parseJsonIds(await req.json(), ['id']) as { id: unknown; name: string };
        const id = parseId(body.id, 'body.id');
        return (await store.rename(id, body.name)) ? jsonResponse({ id, name: body.name }) : notFound();
      }),
    },
    'public/players/[publicId]/route.ts': {
      GET: guarded(async (_req: Request, { params }: Params<'publicId'>) => {
        const found = await store.find(playerIds.decode((await params).publicId, 'params.publicId'));
        return found ? jsonResponse(view(found)) : notFound();
      }),
    },
  };
}

/** Serves the route modules through @hono/node-server's fetch adaptor, matching paths as the App Router would. */
async function startNextStyle(store: PlayerStore) {
  const routes = nextRoutes(store);
  const fetch = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const param = <K extends string>(name: K, value: string) => ({
      params: Promise.resolve({ [name]: decodeURIComponent(value) } as Record<K, string>),
    });
    if (req.method === 'POST' && path === '/players') return routes['players/route.ts'].POST(req);
    if (req.method === 'POST' && path === '/players/rename')
      return routes['players/rename/route.ts'].POST(req);
    const byId = path.match(/^\/players\/([^/]+)$/);
    if (req.method === 'GET' && byId) return routes['players/[id]/route.ts'].GET(req, param('id', byId[1]!));
    const byPublicId = path.match(/^\/public\/players\/([^/]+)$/);
    if (req.method === 'GET' && byPublicId) {
      return routes['public/players/[publicId]/route.ts'].GET(req, param('publicId', byPublicId[1]!));
    }
    return new Response('not found', { status: 404 });
  };
  return listen(createAdaptorServer({ fetch }) as Server);
}

describeIdRoundTrip('hono + @snowkey/knex', (db, ids) => knexPlayerStore(db, ids), startHono);
describeIdRoundTrip(
  'Next.js-style route handlers + @snowkey/knex',
  (db, ids) => knexPlayerStore(db, ids),
  startNextStyle,
);
