import { exactSqliteIntegers, type IdGenerator, layouts, Snowflake } from '@snowkey/core';
import { verifyBigintReads } from '@snowkey/drizzle';
import {
  type DatabaseRef,
  type GameWriter,
  playShard,
  type ShardPlayer,
  sqliteFilename,
} from '@snowkey/example-merge';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { mysqlGameTables } from './mysql-game-tables.js';
import { MySqlGameWriter } from './mysql-game-writer.js';
import { pgGameTables } from './pg-game-tables.js';
import { PgGameWriter } from './pg-game-writer.js';
import { sqliteGameTables } from './sqlite-game-tables.js';
import { SQLiteGameWriter } from './sqlite-game-writer.js';

/**
 * A game server's writer through Drizzle on `ref`'s database, its tables' ids taken from
 * `generator`, the driver set up for exact BIGINT reads and checked with `verifyBigintReads`.
 * SQLite gets the examples' pragmas: WAL, a busy timeout, foreign keys on.
 *
 * @example
 * const writer = await drizzleGameWriter({ dialect: 'postgres', url }, new Snowflake({ layout: layouts.gameServer, serverId: 1 }));
 */
export async function drizzleGameWriter(ref: DatabaseRef, generator: IdGenerator): Promise<GameWriter> {
  switch (ref.dialect) {
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: ref.url, max: 4 });
      const db = drizzlePg(pool);
      await verifyBigintReads(db);
      return new PgGameWriter(db, pgGameTables(generator), () => pool.end());
    }
    case 'mysql': {
      const pool = mysql.createPool({
        uri: ref.url,
        connectionLimit: 4,
        supportBigNumbers: true,
        bigNumberStrings: true,
      });
      const db = drizzleMysql(pool);
      await verifyBigintReads(db);
      return new MySqlGameWriter(db, mysqlGameTables(generator), () => pool.end());
    }
    case 'sqlite': {
      const sqlite = new Database(sqliteFilename(ref.url));
      for (const pragma of ['journal_mode = WAL', 'busy_timeout = 10000', 'foreign_keys = ON'])
        sqlite.pragma(pragma);
      exactSqliteIntegers(sqlite);
      const db = drizzleSqlite(sqlite);
      await verifyBigintReads(db);
      return new SQLiteGameWriter(db, sqliteGameTables(generator), async () => {
        sqlite.close();
      });
    }
  }
}

/**
 * Plays a shard through `@snowkey/drizzle`: one `Snowflake` per game server (`layouts.gameServer`,
 * `serverId` = the server), shared by all of its concurrent writers.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'drizzle_demo', players: drizzlePlayer, playersPerShard: 500 });
 */
export const drizzlePlayer: ShardPlayer = {
  name: 'drizzle',
  async play(shard, options) {
    const generator = new Snowflake({ layout: layouts.gameServer, serverId: shard.serverId });
    const writer = await drizzleGameWriter(shard.ref, generator);
    try {
      return await playShard(writer, options);
    } finally {
      await writer.close();
    }
  },
};
