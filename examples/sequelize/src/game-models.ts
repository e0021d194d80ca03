import { BigIntKey, SnowflakeId } from '@snowkey/sequelize';
import { DataTypes, Model, type Sequelize } from 'sequelize';

/**
 * A player (table `players`); its model comes from {@link defineGameModels}.
 *
 * @example
 * const { Player: model } = defineGameModels(sequelize);
 */
export class Player extends Model {
  declare id: bigint;
}
/**
 * A guild (table `guilds`); its model comes from {@link defineGameModels}.
 *
 * @example
 * const { Guild: model } = defineGameModels(sequelize);
 */
export class Guild extends Model {
  declare id: bigint;
}
/**
 * A guild membership (table `guild_members`); its model comes from {@link defineGameModels}.
 *
 * @example
 * const { GuildMember: model } = defineGameModels(sequelize);
 */
export class GuildMember extends Model {
  declare id: bigint;
}
/**
 * An item in a player's bag (table `items`); its model comes from {@link defineGameModels}.
 *
 * @example
 * const { Item: model } = defineGameModels(sequelize);
 */
export class Item extends Model {
  declare id: bigint;
}
/**
 * Mail between players (table `mail`); its model comes from {@link defineGameModels}.
 *
 * @example
 * const { Mail: model } = defineGameModels(sequelize);
 */
export class Mail extends Model {
  declare id: bigint;
}

/**
 * The game's models on `sequelize`, as fresh subclasses (one set per Sequelize instance): every
 * key a `SnowflakeId()`, every reference a `BigIntKey()`, attribute names camelCase over the
 * game schema's snake_case columns.
 *
 * @example
 * const { Player } = defineGameModels(sequelize);
 * const aria = await Player.create({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() });
 */
export function defineGameModels(sequelize: Sequelize) {
  const options = (tableName: string) => ({ sequelize, tableName, timestamps: false, underscored: true });
  // Factories, not shared objects: Sequelize writes each attribute's field name into its definition.
  const millis = () => ({ type: DataTypes.BIGINT, allowNull: false });
  const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: false });
  const ref = () => BigIntKey({ allowNull: false });
  const players = class extends Player {};
  const guilds = class extends Guild {};
  const members = class extends GuildMember {};
  const items = class extends Item {};
  const mail = class extends Mail {};
  players.init(
    {
      id: SnowflakeId(),
      name: text(40),
      homeServer: DataTypes.INTEGER,
      level: DataTypes.INTEGER,
      createdAt: millis(),
    },
    options('players'),
  );
  guilds.init({ id: SnowflakeId(), name: text(40), leaderId: ref(), createdAt: millis() }, options('guilds'));
  members.init(
    { id: SnowflakeId(), guildId: ref(), playerId: ref(), role: text(16), joinedAt: millis() },
    options('guild_members'),
  );
  items.init(
    { id: SnowflakeId(), ownerId: ref(), kind: text(32), qty: DataTypes.INTEGER, createdAt: millis() },
    options('items'),
  );
  mail.init(
    {
      id: SnowflakeId(),
      senderId: ref(),
      recipientId: ref(),
      itemId: BigIntKey({ allowNull: true }),
      subject: text(80),
      sentAt: millis(),
    },
    options('mail'),
  );
  return { Player: players, Guild: guilds, GuildMember: members, Item: items, Mail: mail };
}
