import { BigIntColumn, SnowflakeColumn } from '@snowkey/typeorm';
import { Column, Entity, JoinColumn, ManyToOne, OneToMany } from 'typeorm';

@Entity('guilds')
export class Guild {
  @SnowflakeColumn() id: bigint;
  @Column('varchar') name: string;
  @OneToMany(
    () => Player,
    (p) => p.guild,
    { cascade: ['insert'] },
  )
  players?: Player[];
}

@Entity('players')
export class Player {
  @SnowflakeColumn() id: bigint;
  @Column('varchar') name: string;
  @BigIntColumn({ name: 'guild_id', nullable: true }) guildId?: bigint | null;
  @ManyToOne(
    () => Guild,
    (g) => g.players,
  )
  @JoinColumn({ name: 'guild_id' })
  guild?: Guild;
}
