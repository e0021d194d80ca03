// An ESM app (top-level await) that follows the README's quick start.
import { PrismaPg } from '@prisma/adapter-pg';
import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
import { prismaSqlClient, snowkey } from '@snowkey/prisma';
import { type Prisma, PrismaClient } from './generated/prisma/client.js';

const base = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL }) });
const lease = await leaseNodeId({ client: prismaSqlClient(base), layout: layouts.default });
const prisma = base.$extends(
  snowkey<Prisma.ModelName>({
    generator: new Snowflake({ layout: layouts.default, lease }),
    models: { Player: 'id', Match: 'id', Replay: ['id', 'shareId'] },
  }),
);

const player = await prisma.player.create({ data: { name: 'Aria' } });
const playerId: bigint = player.id;
const match = await prisma.match.create({
  data: { player: { connect: { id: playerId } }, replays: { create: {} } },
  include: { replays: true },
});
const replay = match.replays[0]!;
const read = await prisma.player.findUniqueOrThrow({ where: { id: playerId } });
await lease.release();
await base.$disconnect();

const result = {
  player: playerId,
  match: match.id,
  replay: [replay.id, replay.shareId],
  nodeId: lease.nodeId,
  readBack: read.id === playerId,
};
console.log(JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
