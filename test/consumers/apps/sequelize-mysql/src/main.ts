// A CommonJS app (node16 resolution, no top-level await) that follows the README's set-up.
import { Snowflake } from '@snowkey/core';
import { attachSnowflakes, BigIntKey, SnowflakeId } from '@snowkey/sequelize';
import { DataTypes, Model, Sequelize } from 'sequelize';

class Guild extends Model {
  declare id: bigint;
  declare name: string;
}
class Player extends Model {
  declare id: bigint;
  declare guildId: bigint | null;
  declare name: string;
}

async function main(): Promise<void> {
  const sequelize = new Sequelize(process.env.DATABASE_URL!, { logging: false });
  Guild.init(
    { id: SnowflakeId(), name: DataTypes.STRING },
    { sequelize, tableName: 'guilds', timestamps: false },
  );
  Player.init(
    { id: SnowflakeId(), guildId: BigIntKey({ field: 'guild_id' }), name: DataTypes.STRING },
    { sequelize, tableName: 'players', timestamps: false },
  );
  Guild.hasMany(Player, { foreignKey: 'guildId' });
  attachSnowflakes(sequelize, { generator: new Snowflake({ workerId: 1 }) });
  try {
    const owls = await Guild.create({ name: 'Owls' });
    const aria = await Player.create({ name: 'Aria', guildId: owls.id });
    await Player.create({ id: 42n, name: 'Imported' });
    const read = await Player.findOne({ where: { name: 'Aria' } });
    const result = {
      guild: owls.id,
      players: { Aria: aria.id, Imported: 42n },
      readBack: typeof read?.id === 'bigint' && read.id === aria.id && read.guildId === owls.id,
    };
    console.log(
      JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
    );
  } finally {
    await sequelize.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
