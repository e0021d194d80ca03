// A classic NestJS application: CommonJS, decorators with emitted metadata, TypeOrmModule.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import type { IdGenerator } from '@snowkey/core';
import { SNOWKEY_GENERATOR, SnowkeyModule, SnowkeyService } from '@snowkey/nest';
import { attachSnowflakes, typeormSqlClient } from '@snowkey/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Guild, Player } from './entities';

@Injectable()
class Guilds {
  constructor(
    @InjectRepository(Guild) private readonly guilds: Repository<Guild>,
    @InjectRepository(Player) private readonly players: Repository<Player>,
  ) {}

  found(name: string, members: string[]): Promise<Guild> {
    return this.guilds.save(this.guilds.create({ name, players: members.map((m) => ({ name: m })) }));
  }

  byName(name: string): Promise<Player> {
    return this.players.findOneByOrFail({ name });
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({ type: 'mariadb', url: process.env.DATABASE_URL, entities: [Guild, Player] }),
    TypeOrmModule.forFeature([Guild, Player]),
    SnowkeyModule.forRootAsync({
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => ({ lease: { client: typeormSqlClient(dataSource) } }),
    }),
  ],
  providers: [
    Guilds,
    {
      provide: 'SNOWFLAKES',
      inject: [DataSource, SNOWKEY_GENERATOR],
      useFactory: (dataSource: DataSource, generator: IdGenerator) =>
        attachSnowflakes(dataSource, { generator }),
    },
  ],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    const guilds = app.get(Guilds);
    const owls = await guilds.found('Owls', ['Aria', 'Bo']);
    const aria = await guilds.byName('Aria');
    const result = {
      nodeId: app.get(SnowkeyService).lease?.nodeId,
      guild: owls.id,
      players: Object.fromEntries((owls.players ?? []).map((p) => [p.name, p.id])),
      readBack: typeof aria.id === 'bigint' && aria.guildId === owls.id,
    };
    console.log(
      JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
    );
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
