import { bigintTypeCast, layouts, Snowflake } from '@snowkey/core';
import { type DatabaseRef, playShard, type ShardPlayer, sqliteFilename } from '@snowkey/example-merge';
import { pgBigintTypes, snowkeyPlugin, verifyBigintReads } from '@snowkey/kysely';
import Database from 'better-sqlite3';
import { type Dialect, Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { GAME_ID_COLUMNS, type GameDatabase, KyselyGameWriter } from './kysely-game-writer.js';

/**
 * The Kysely dialect of a game server's database, with BIGINT read back as an exact bigint on each
 * driver. SQLite: one better-sqlite3 connection with foreign keys on, WAL and a busy timeout, as
 * the other examples have.
 *
 * @example
 * const dialect = kyselyDialectFor({ dialect: 'postgres', url: 'postgres://postgres@127.0.0.1/game_s1' });
 */
export function kyselyDialectFor(ref: DatabaseRef): Dialect {
  if (ref.dialect === 'postgres') {
    return new PostgresDialect({
      pool: new pg.Pool({ connectionString: ref.url, max: 4, types: pgBigintTypes(pg.types) }),
    });
  }
  if (ref.dialect === 'mysql') {
    return new MysqlDialect({
      pool: createPool({ uri: ref.url, connectionLimit: 4, typeCast: bigintTypeCast() }),
    });
  }
  const database = new Database(sqliteFilename(ref.url));
  for (const pragma of [
    'journal_mode = WAL',
    'synchronous = NORMAL',
    'busy_timeout = 10000',
    'foreign_keys = ON',
  ]) {
    database.pragma(pragma);
  }
  database.defaultSafeIntegers(true);
  return new SqliteDialect({ database });
}

/**
 * Plays a shard through `@snowkey/kysely`: one `Snowflake` per game server (`layouts.gameServer`,
 * `serverId` = the server), shared by all of its concurrent writers through one plugin.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'kysely_demo', players: kyselyPlayer, playersPerShard: 500 });
 */
export const kyselyPlayer: ShardPlayer = {
  name: 'kysely',
  async play(shard, options) {
    const generator = new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId });
    const sk = snowkeyPlugin({ generator, tables: GAME_ID_COLUMNS });
    const db = new Kysely<GameDatabase>({ dialect: kyselyDialectFor(shard.ref), plugins: [sk] });
    const writer = new KyselyGameWriter(db, sk);
    try {
      await verifyBigintReads(db);
      return await playShard(writer, options);
    } finally {
      await writer.close();
    }
  },
};
