import { Column, Entity, JoinColumn, ManyToOne, OneToMany } from 'typeorm';
import { BigIntColumn, SnowflakeColumn } from '../../src/index.js';

/** The example entities: a guild has players, a player owns items; every key is a snowflake. */
@Entity('guild')
export class Guild {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @OneToMany(
    () => Player,
    (player) => player.guild,
    { cascade: ['insert'] },
  )
  players?: Player[];
}

@Entity('player')
export class Player {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 100, unique: true }) name!: string;
  @BigIntColumn({ name: 'guild_id', nullable: true }) guildId?: bigint | null;
  @ManyToOne(
    () => Guild,
    (guild) => guild.players,
    { nullable: true },
  )
  @JoinColumn({ name: 'guild_id' })
  guild?: Guild | null;
  @OneToMany(
    () => Item,
    (item) => item.owner,
    { cascade: ['insert'] },
  )
  items?: Item[];
}

@Entity('item')
export class Item {
  @SnowflakeColumn() id!: bigint;
  /** A non-primary snowflake with its own generator: a serial number printed on the item. */
  @SnowflakeColumn({ primary: false, unique: true, generator: 'serials', name: 'serial_no' })
  serialNo!: bigint;
  @Column({ type: 'varchar', length: 100 }) label!: string;
  @BigIntColumn({ name: 'owner_id' }) ownerId!: bigint;
  @ManyToOne(
    () => Player,
    (player) => player.items,
  )
  @JoinColumn({ name: 'owner_id' })
  owner?: Player;
}

export const gameEntities = [Guild, Player, Item];
