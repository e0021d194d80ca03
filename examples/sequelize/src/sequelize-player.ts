import { layouts, Snowflake } from '@snowkey/core';
import { type DatabaseRef, playShard, type ShardPlayer, sqliteFilename } from '@snowkey/example-merge';
import { attachSnowflakes, betterSqlite3Module } from '@snowkey/sequelize';
import Database from 'better-sqlite3';
import { Sequelize } from 'sequelize';
import { SequelizeGameWriter } from './sequelize-game-writer.js';

/**
 * A Sequelize instance on a game server's database: `pg`, `mysql2`, or SQLite through
 * better-sqlite3 (`betterSqlite3Module`, with WAL and a busy timeout on every connection so the
 * merge can read while a server writes).
 *
 * @example
 * const sequelize = openGameSequelize({ dialect: 'postgres', url: 'postgres://postgres@127.0.0.1/game_s1' });
 */
export function openGameSequelize(ref: DatabaseRef): Sequelize {
  if (ref.dialect === 'sqlite') {
    return new Sequelize({
      dialect: 'sqlite',
      storage: sqliteFilename(ref.url),
      dialectModule: betterSqlite3Module(Database, {
        onConnect: (db) => {
          for (const pragma of ['journal_mode = WAL', 'synchronous = NORMAL', 'busy_timeout = 10000']) {
            db.pragma(pragma);
          }
        },
      }),
      logging: false,
    });
  }
  return new Sequelize(ref.url, { logging: false, pool: { max: 4, min: 0 } });
}

/**
 * Plays a shard through `@snowkey/sequelize`: one `Snowflake` per game server (`layouts.gameServer`,
 * `serverId` = the server), shared by all of its concurrent writers.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'sequelize_demo', players: sequelizePlayer, playersPerShard: 500 });
 */
export const sequelizePlayer: ShardPlayer = {
  name: 'sequelize',
  async play(shard, options) {
    const sequelize = openGameSequelize(shard.ref);
    attachSnowflakes(sequelize, {
      generator: new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId }),
    });
    const writer = new SequelizeGameWriter(sequelize);
    try {
      return await playShard(writer, options);
    } finally {
      await writer.close();
    }
  },
};
