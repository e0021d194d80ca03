export type { GameClient, GameDelegates, NewItemData } from './game-client.js';
export { ensurePrismaClient } from './prisma-clients.js';
export { PrismaGameWriter } from './prisma-game-writer.js';
export { driverAdapter, GAME_MODELS, prismaPlayer } from './prisma-player.js';
