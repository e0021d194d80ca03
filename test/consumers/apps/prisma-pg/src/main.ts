// An ESM app (top-level await) that follows the README's quick start.
import { PrismaPg } from '@prisma/adapter-pg';
import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
import { prismaSqlClient, snowkey, snowkeyClient } from '@snowkey/prisma';
import { type Prisma, PrismaClient } from './generated/prisma/client.js';
import { dataModel } from './generated/snowkey/data-model.js';

const base = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) });
const lease = await leaseNodeId({ client: prismaSqlClient(base), layout: layouts.default });
const generator = new Snowflake({ layout: layouts.default, lease });
const models = { Player: 'id', Match: 'id', Replay: ['id', 'shareId'] } as const;
const prisma = base.$extends(snowkey<Prisma.ModelName>({ generator, models, dataModel }));

const player = await prisma.player.create({ data: { name: 'Aria' } });
const playerId: bigint = player.id;
const match = await prisma.match.create({
  data: { player: { connect: { id: playerId } }, replays: { create: {} } },
  include: { replays: true },
});
const replay = match.replays[0]!;
// From the side that holds the key: Prisma inserts the nested match first.
const nested = await prisma.replay.create({
  data: { match: { create: { player: { connect: { id: playerId } } } } },
});
// Without dataModel, snowkey reads the client's own (private) data model.
const fallback = await snowkeyClient(base, { generator, models }).player.create({ data: { name: 'Bea' } });
const read = await prisma.player.findUniqueOrThrow({ where: { id: playerId } });
await lease.release();
await base.$disconnect();

const result = {
  player: playerId,
  match: match.id,
  replay: [replay.id, replay.shareId],
  nested: { match: nested.matchId, replay: [nested.id, nested.shareId] },
  fallbackPlayer: fallback.id,
  nodeId: lease.nodeId,
  readBack: read.id === playerId,
};
console.log(JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
