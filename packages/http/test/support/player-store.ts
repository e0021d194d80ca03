import 'reflect-metadata';
import type { IdGenerator } from '@snowkey/core';
import { exactSqliteIntegers } from '@snowkey/core';
import { snowkeyKnex, withBigintReads } from '@snowkey/knex';
import type { TestDatabase } from '@snowkey/test-harness';
import { attachSnowflakes, SnowflakeColumn } from '@snowkey/typeorm';
import knex from 'knex';
import { Column, DataSource, type DataSourceOptions, Entity } from 'typeorm';

/** A player row as the servers under test see it: the id a bigint, as every adapter returns it. */
export interface Player {
  id: bigint;
  name: string;
}

/** The data access the test servers use, backed by a snowkey adapter. */
export interface PlayerStore {
  /** Inserts through the adapter, which takes the id from the generator. */
  create(name: string): Promise<Player>;
  find(id: bigint): Promise<Player | null>;
  /** Renames the row with this exact id; false when there is none. */
  rename(id: bigint, name: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The table every HTTP test uses; the same statement on PostgreSQL, MySQL and SQLite. */
export const PLAYERS_DDL =
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL)';

/**
 * A store on Knex through `@snowkey/knex`.
 *
 * @example
 * const store = knexPlayerStore(ctx.db, generator);
 */
export function knexPlayerStore(db: TestDatabase, generator: IdGenerator): PlayerStore {
  const client = db.dialect === 'postgres' ? 'pg' : db.dialect === 'mysql' ? 'mysql2' : 'better-sqlite3';
  const connection =
    db.dialect === 'sqlite' ? { filename: db.filename! } : db.dialect === 'mysql' ? { uri: db.url } : db.url;
  const k = knex(withBigintReads({ client, connection, useNullAsDefault: true, pool: { min: 0, max: 2 } }));
  const sk = snowkeyKnex(k, { generator, tables: { players: 'id' } });
  return {
    async create(name) {
      const [row] = await sk.insert('players', { name });
      return { id: row!.id as bigint, name };
    },
    async find(id) {
      const row = await k('players').where({ id }).first();
      return row ? { id: row.id as bigint, name: row.name as string } : null;
    },
    async rename(id, name) {
      return (await k('players').where({ id }).update({ name })) === 1;
    },
    close: () => k.destroy(),
  };
}

@Entity('players')
class PlayerEntity {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 100 }) name!: string;
}

/**
 * A store on TypeORM through `@snowkey/typeorm` (what NestJS applications use).
 *
 * @example
 * const store = await typeormPlayerStore(ctx.db, generator);
 */
export async function typeormPlayerStore(db: TestDatabase, generator: IdGenerator): Promise<PlayerStore> {
  const entities = [PlayerEntity];
  const options: DataSourceOptions =
    db.dialect === 'postgres'
      ? { type: 'postgres', url: db.url, entities }
      : db.dialect === 'mysql'
        ? { type: 'mysql', url: db.url, entities }
        : { type: 'better-sqlite3', database: db.filename!, entities, prepareDatabase: exactSqliteIntegers };
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  attachSnowflakes(dataSource, { generator });
  const players = dataSource.getRepository(PlayerEntity);
  return {
    async create(name) {
      const saved = await players.save(players.create({ name }));
      return { id: saved.id, name: saved.name };
    },
    async find(id) {
      const found = await players.findOneBy({ id });
      return found ? { id: found.id, name: found.name } : null;
    },
    async rename(id, name) {
      return ((await players.update({ id }, { name })).affected ?? 0) === 1;
    },
    close: () => dataSource.destroy(),
  };
}
