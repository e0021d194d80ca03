import type { TestDatabase } from '@snowkey/test-harness';
import { type Association, DataTypes, Model, type Sequelize } from 'sequelize';
import { BigIntKey, SnowflakeId } from '../src/index.js';

export class Player extends Model {
  declare id: bigint;
  declare name: string;
  declare level: number;
}
export class Guild extends Model {
  declare id: bigint;
  declare name: string;
  declare members?: Member[];
}
export class Member extends Model {
  declare id: bigint;
  declare guildId: bigint;
  declare nick: string;
  declare guild?: Guild;
}
export class Item extends Model {
  declare id: bigint;
  declare serialNo: bigint;
  declare label: string;
}

/** The test models on `sequelize`, each a fresh subclass so every Sequelize instance has its own. */
export function defineModels(sequelize: Sequelize) {
  const common = { sequelize, timestamps: false, underscored: true };
  const P = class extends Player {};
  const G = class extends Guild {};
  const M = class extends Member {};
  const I = class extends Item {};
  P.init(
    {
      id: SnowflakeId(),
      name: { type: DataTypes.STRING(100), allowNull: false, unique: true },
      level: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
    },
    { ...common, modelName: 'Player', tableName: 'players' },
  );
  G.init(
    { id: SnowflakeId(), name: DataTypes.STRING(100) },
    { ...common, modelName: 'Guild', tableName: 'guilds' },
  );
  M.init(
    { id: SnowflakeId(), guildId: BigIntKey({ allowNull: false }), nick: DataTypes.STRING(100) },
    { ...common, modelName: 'Member', tableName: 'members' },
  );
  I.init(
    {
      id: SnowflakeId(),
      serialNo: SnowflakeId({ primaryKey: false, unique: true }),
      label: DataTypes.STRING(100),
    },
    { ...common, modelName: 'Item', tableName: 'items' },
  );
  const members: Association = G.hasMany(M, { as: 'members', foreignKey: 'guildId' });
  const guild: Association = M.belongsTo(G, { as: 'guild', foreignKey: 'guildId' });
  return { Player: P, Guild: G, Member: M, Item: I, members, guild };
}

/** The tables, created with SQL (not `sync`), the same on every dialect. */
export async function createTables(db: TestDatabase): Promise<void> {
  await db.query(
    'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, level INT NOT NULL DEFAULT 1)',
  );
  await db.query('CREATE TABLE guilds (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100))');
  await db.query(
    'CREATE TABLE members (id BIGINT NOT NULL PRIMARY KEY, guild_id BIGINT NOT NULL REFERENCES guilds(id), nick VARCHAR(100))',
  );
  await db.query(
    'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, serial_no BIGINT NOT NULL UNIQUE, label VARCHAR(100))',
  );
}

/** Empties the tables, children first. */
export async function clearTables(db: TestDatabase): Promise<void> {
  for (const table of ['members', 'guilds', 'players', 'items']) await db.query(`DELETE FROM ${table}`);
}
