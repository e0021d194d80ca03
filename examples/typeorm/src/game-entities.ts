import { BigIntColumn, SnowflakeColumn } from '@snowkey/typeorm';
import { Column, Entity, JoinColumn, ManyToOne, OneToMany, type ValueTransformer } from 'typeorm';

/** `created_at` and friends: BIGINT ms since 1970, a number in TypeScript (far below 2^53). */
const millis: ValueTransformer = {
  to: (v: number | undefined) => v,
  from: (v: string | number | bigint | null) => (v === null ? null : Number(v)),
};

/**
 * A player. The game's entities map the example schema (created by the SQL in
 * @snowkey/example-merge, not by `synchronize`): every key is a `@SnowflakeColumn`, every foreign
 * key a `@BigIntColumn`.
 *
 * @example
 * const aria = await dataSource.manager.save(Player, { name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() });
 * aria.id; // 2500114...n, assigned before the INSERT
 */
@Entity({ name: 'players' })
export class Player {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 40, unique: true }) name!: string;
  @Column({ name: 'home_server', type: 'int' }) homeServer!: number;
  @Column({ type: 'int' }) level!: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: millis }) createdAt!: number;
}

/**
 * A guild; saving one with `members` inserts them too, ids filled before any INSERT.
 *
 * @example
 * await em.save(em.create(Guild, { name: 'Owls', leaderId, createdAt, members: [{ playerId: leaderId, role: 'leader', joinedAt }] }));
 */
@Entity({ name: 'guilds' })
export class Guild {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 40, unique: true }) name!: string;
  @BigIntColumn({ name: 'leader_id' }) leaderId!: bigint;
  @Column({ name: 'created_at', type: 'bigint', transformer: millis }) createdAt!: number;
  @OneToMany(
    () => GuildMember,
    (m) => m.guild,
    { cascade: ['insert'] },
  )
  members?: GuildMember[];
}

/**
 * A player's membership of a guild.
 *
 * @example
 * await em.save(em.create(GuildMember, { guildId, playerId, role: 'member', joinedAt: Date.now() }));
 */
@Entity({ name: 'guild_members' })
export class GuildMember {
  @SnowflakeColumn() id!: bigint;
  @BigIntColumn({ name: 'guild_id' }) guildId!: bigint;
  @ManyToOne(
    () => Guild,
    (g) => g.members,
  )
  @JoinColumn({ name: 'guild_id' })
  guild?: Guild;
  @BigIntColumn({ name: 'player_id' }) playerId!: bigint;
  @Column({ type: 'varchar', length: 16 }) role!: string;
  @Column({ name: 'joined_at', type: 'bigint', transformer: millis }) joinedAt!: number;
}

/**
 * An item in a player's bag.
 *
 * @example
 * await em.insert(Item, [em.create(Item, { ownerId, kind: 'sword', qty: 1, createdAt: Date.now() })]);
 */
@Entity({ name: 'items' })
export class Item {
  @SnowflakeColumn() id!: bigint;
  @BigIntColumn({ name: 'owner_id' }) ownerId!: bigint;
  @Column({ type: 'varchar', length: 32 }) kind!: string;
  @Column({ type: 'int' }) qty!: number;
  @Column({ name: 'created_at', type: 'bigint', transformer: millis }) createdAt!: number;
}

/**
 * Mail between players, optionally carrying an item.
 *
 * @example
 * await em.save(em.create(Mail, { senderId, recipientId, itemId: null, subject: 'gg', sentAt: Date.now() }));
 */
@Entity({ name: 'mail' })
export class Mail {
  @SnowflakeColumn() id!: bigint;
  @BigIntColumn({ name: 'sender_id' }) senderId!: bigint;
  @BigIntColumn({ name: 'recipient_id' }) recipientId!: bigint;
  @BigIntColumn({ name: 'item_id', nullable: true }) itemId!: bigint | null;
  @Column({ type: 'varchar', length: 80 }) subject!: string;
  @Column({ name: 'sent_at', type: 'bigint', transformer: millis }) sentAt!: number;
}

/**
 * Every entity of the example, for the DataSource.
 *
 * @example
 * new DataSource({ type: 'postgres', url, entities: GAME_ENTITIES });
 */
export const GAME_ENTITIES = [Player, Guild, GuildMember, Item, Mail];
