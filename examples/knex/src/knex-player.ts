import { layouts, Snowflake } from '@snowkey/core';
import {
  type DatabaseRef,
  playShard,
  type ShardPlayer,
  sqliteFilename,
  sqlitePool,
} from '@snowkey/example-merge';
import { snowkeyKnex, withBigintReads } from '@snowkey/knex';
import knex, { type Knex } from 'knex';
import { GAME_ID_COLUMNS, KnexGameWriter } from './knex-game-writer.js';

/**
 * The Knex config of a game server's database, with `withBigintReads` so every BIGINT reads
 * back as an exact bigint. SQLite gets the examples' `sqlitePool()`: one connection, foreign keys on.
 *
 * @example
 * const db = knex(knexConfig({ dialect: 'postgres', url: 'postgres://postgres@127.0.0.1/game_s1' }));
 */
export function knexConfig(ref: DatabaseRef): Knex.Config {
  // Knex's error messages inline the bindings and choke on a bigint one; keep the driver's error.
  const common = { compileSqlOnError: false };
  if (ref.dialect === 'sqlite') {
    return withBigintReads({
      ...common,
      client: 'better-sqlite3',
      connection: { filename: sqliteFilename(ref.url) },
      useNullAsDefault: true,
      pool: sqlitePool(),
    });
  }
  return withBigintReads({
    ...common,
    client: ref.dialect === 'postgres' ? 'pg' : 'mysql2',
    connection: ref.url,
    pool: { min: 0, max: 4 },
  });
}

/**
 * Plays a shard through `@snowkey/knex`: one `Snowflake` per game server (`layouts.gameServer`,
 * `serverId` = the server), shared by all of its concurrent writers.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'knex_demo', players: knexPlayer, playersPerShard: 500 });
 */
export const knexPlayer: ShardPlayer = {
  name: 'knex',
  async play(shard, options) {
    const generator = new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId });
    const writer = new KnexGameWriter(
      snowkeyKnex(knex(knexConfig(shard.ref)), { generator, tables: GAME_ID_COLUMNS }),
    );
    try {
      return await playShard(writer, options);
    } finally {
      await writer.close();
    }
  },
};
