import 'reflect-metadata';
import { exactSqliteIntegers, layouts, Snowflake } from '@snowkey/core';
import { type DatabaseRef, playShard, type ShardPlayer, sqliteFilename } from '@snowkey/example-merge';
import { attachSnowflakes } from '@snowkey/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { GAME_ENTITIES } from './game-entities.js';
import { TypeormGameWriter } from './typeorm-game-writer.js';

/**
 * The DataSource options of a game server's database. The tables exist already (no
 * `synchronize`); SQLite reads integers exactly through `exactSqliteIntegers`.
 *
 * @example
 * const ds = new DataSource(dataSourceOptions({ dialect: 'mysql', url: 'mysql://root@127.0.0.1/game_s1' }));
 */
export function dataSourceOptions(ref: DatabaseRef): DataSourceOptions {
  const common = { entities: GAME_ENTITIES, synchronize: false, logging: false } as const;
  if (ref.dialect === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      database: sqliteFilename(ref.url),
      prepareDatabase: (db: { pragma(s: string): unknown }) => {
        exactSqliteIntegers(db);
        db.pragma('journal_mode = WAL');
      },
    };
  }
  if (ref.dialect === 'postgres') return { ...common, type: 'postgres', url: ref.url };
  return { ...common, type: 'mysql', url: ref.url, supportBigNumbers: true, bigNumberStrings: true };
}

/**
 * Plays a shard through TypeORM: one DataSource per game server, `attachSnowflakes` with a
 * `Snowflake` on `layouts.gameServer` and the server's id.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'typeorm_demo', players: typeormPlayer, playersPerShard: 500 });
 */
export const typeormPlayer: ShardPlayer = {
  name: 'typeorm',
  async play(shard, options) {
    const dataSource = new DataSource(dataSourceOptions(shard.ref));
    await dataSource.initialize();
    attachSnowflakes(dataSource, {
      generator: new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId }),
    });
    const writer = new TypeormGameWriter(dataSource);
    try {
      return await playShard(writer, options);
    } finally {
      await writer.close();
    }
  },
};
