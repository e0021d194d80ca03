import { parseId } from '@snowkey/core';
import { idErrorHandler, idJson, idParam, snowkeyAjv } from '@snowkey/http/fastify';
import Fastify from 'fastify';
import { knexPlayerStore, type PlayerStore } from './support/player-store.js';
import { describeIdRoundTrip, playerIds } from './support/round-trip.js';

// Fastify 5 in its own idiom: schemas. idParam checks ids in params and body without Ajv's type
// coercion; idJson makes fast-json-stringify write bigints as exact strings; idErrorHandler
// answers the public-id codec's errors. On Knex through @snowkey/knex.
async function startFastify(store: PlayerStore) {
  const app = Fastify({ ajv: { plugins: [snowkeyAjv] } });
  app.setErrorHandler(idErrorHandler);
  const player = {
    type: 'object',
    properties: { id: idJson, publicId: { type: 'string' }, name: { type: 'string' } },
  } as const;
  const view = (p: { id: bigint; name: string }) => ({
    id: p.id,
    publicId: playerIds.encode(p.id),
    name: p.name,
  });
  const notFound = { 404: { type: 'object', properties: { error: { type: 'string' } } } } as const;

  app.post('/players', { schema: { response: { 201: player } } }, async (req, reply) =>
    reply.code(201).send(view(await store.create(String((req.body as { name: string }).name)))),
  );
  app.get(
    '/players/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: idParam }, required: ['id'] },
        response: { 200: player, ...notFound },
      },
    },
    async (req, reply) => {
      const found = await store.find(parseId((req.params as { id: string }).id, 'params.id'));
      return found ? view(found) : reply.code(404).send({ error: 'not found' });
    },
  );
  app.post(
    '/players/rename',
    {
      schema: {
        body: {
          type: 'object',
          properties: { id: idParam, name: { type: 'string' } },
          required: ['id', 'name'],
        },
        response: {
          200: { type: 'object', properties: { id: idJson, name: { type: 'string' } } },
          ...notFound,
        },
      },
    },
    async (req, reply) => {
      const body = req.body as { id: string; name: string };
      const id = parseId(body.id, 'body.id');
      return (await store.rename(id, body.name))
        ? { id, name: body.name }
        : reply.code(404).send({ error: 'not found' });
    },
  );
  app.get(
    '/public/players/:publicId',
    { schema: { response: { 200: player, ...notFound } } },
    async (req, reply) => {
      const id = playerIds.decode((req.params as { publicId: string }).publicId, 'params.publicId');
      const found = await store.find(id);
      return found ? view(found) : reply.code(404).send({ error: 'not found' });
    },
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

describeIdRoundTrip('fastify + @snowkey/knex', (db, ids) => knexPlayerStore(db, ids), startFastify);
