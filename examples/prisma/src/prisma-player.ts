import { layouts, Snowflake } from '@snowkey/core';
import { type DatabaseRef, playShard, type ShardPlayer, sqliteFilename } from '@snowkey/example-merge';
import { snowkey } from '@snowkey/prisma';
import type { GameClient } from './game-client.js';
import { ensurePrismaClient } from './prisma-clients.js';
import { PrismaGameWriter } from './prisma-game-writer.js';

/**
 * Every model's key, for the extension.
 *
 * @example
 * prisma.$extends(snowkey({ generator, models: GAME_MODELS }));
 */
export const GAME_MODELS = { Player: 'id', Guild: 'id', GuildMember: 'id', Item: 'id', Mail: 'id' } as const;

/**
 * The driver adapter of a game server's database: `@prisma/adapter-pg`, `-mariadb` (MySQL and
 * MariaDB) or `-better-sqlite3`.
 *
 * @example
 * new PrismaClient({ adapter: await driverAdapter({ dialect: 'sqlite', url: 'file:/tmp/s1.sqlite' }) });
 */
export async function driverAdapter(ref: DatabaseRef): Promise<object> {
  if (ref.dialect === 'postgres') {
    const { PrismaPg } = await import('@prisma/adapter-pg');
    return new PrismaPg({ connectionString: ref.url, max: 4 });
  }
  if (ref.dialect === 'mysql') {
    const { PrismaMariaDb } = await import('@prisma/adapter-mariadb');
    const u = new URL(ref.url);
    return new PrismaMariaDb({
      host: u.hostname,
      port: u.port ? Number(u.port) : 3306,
      user: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
      database: u.pathname.slice(1),
      connectionLimit: 4,
    });
  }
  const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
  return new PrismaBetterSqlite3({ url: `file:${sqliteFilename(ref.url)}` });
}

/**
 * Plays a shard through Prisma: the generated client for the shard's dialect (generated on first
 * use), extended with `snowkey({ generator, models })`, one `Snowflake` per game server.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'prisma_demo', players: prismaPlayer, playersPerShard: 500 });
 */
export const prismaPlayer: ShardPlayer = {
  name: 'prisma',
  async play(shard, options) {
    const { PrismaClient } = (await import(ensurePrismaClient(shard.ref.dialect))) as {
      PrismaClient: new (options: { adapter: object }) => { $extends(extension: unknown): unknown };
    };
    const generator = new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId });
    const base = new PrismaClient({ adapter: await driverAdapter(shard.ref) });
    const prisma = base.$extends(snowkey({ generator, models: GAME_MODELS })) as GameClient;
    const writer = new PrismaGameWriter(prisma, generator, shard.ref.dialect);
    try {
      return await playShard(writer, options);
    } finally {
      await writer.close();
    }
  },
};
