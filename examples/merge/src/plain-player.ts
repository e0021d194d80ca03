import { layouts, Snowflake } from '@snowkey/core';
import { openDatabase } from './database.js';
import type { ShardPlayer } from './merge-scenario.js';
import { PlainSqlWriter } from './plain-sql-writer.js';
import { playShard } from './play-simulator.js';

/**
 * Plays a shard on plain Knex with ids from a core `Snowflake` (`layouts.gameServer`, the
 * shard's server id): what the adapters do, spelled out, for runs without any ORM.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'demo', players: plainSnowflakePlayer, playersPerShard: 200 });
 */
export const plainSnowflakePlayer: ShardPlayer = {
  name: 'plain',
  async play(shard, options) {
    const db = openDatabase(shard.ref);
    try {
      const ids = new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId });
      return await playShard(new PlainSqlWriter(db, shard.ref.dialect, ids), options);
    } finally {
      await db.destroy();
    }
  },
};
