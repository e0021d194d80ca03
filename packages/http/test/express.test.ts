import { createServer } from 'node:http';
import { idReplacer, parseId } from '@snowkey/core';
import { bodyIds, idErrorHandler } from '@snowkey/http/express';
import express from 'express';
import { listen } from './support/listen.js';
import { knexPlayerStore, type PlayerStore } from './support/player-store.js';
import { describeIdRoundTrip, playerIds } from './support/round-trip.js';

// Express 5: the README's recipe (json replacer, express.json and bodyIds, parseId on params,
// idErrorHandler last), on Knex through @snowkey/knex.
async function startExpress(store: PlayerStore) {
  const app = express();
  app.set('json replacer', idReplacer);
  app.use(express.json(), bodyIds(['id']));
  const view = (p: { id: bigint; name: string }) => ({
    id: p.id,
    publicId: playerIds.encode(p.id),
    name: p.name,
  });

  app.post('/players', async (req, res) => {
    res.status(201).json(view(await store.create(String(req.body.name))));
  });
  app.get('/players/:id', async (req, res) => {
    const player = await store.find(parseId(req.params.id, 'params.id'));
    if (player) res.json(view(player));
    else res.status(404).json({ error: 'not found' });
  });
  app.post('/players/rename', async (req, res) => {
    const id = parseId(req.body.id, 'body.id'); // a bigint from bodyIds; null stays null and is refused here
    if (await store.rename(id, String(req.body.name))) res.json({ id, name: req.body.name });
    else res.status(404).json({ error: 'not found' });
  });
  app.get('/public/players/:publicId', async (req, res) => {
    const player = await store.find(playerIds.decode(req.params.publicId, 'params.publicId'));
    if (player) res.json(view(player));
    else res.status(404).json({ error: 'not found' });
  });
  app.use(idErrorHandler());
  return listen(createServer(app));
}

describeIdRoundTrip('express + @snowkey/knex', (db, ids) => knexPlayerStore(db, ids), startExpress);
