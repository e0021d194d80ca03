import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  Body,
  Controller,
  type DynamicModule,
  Get,
  HttpCode,
  Inject,
  Module,
  NotFoundException,
  Param,
  Post,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IdJsonInterceptor, ParseIdPipe } from '@snowkey/http/nest';
import { type Player, type PlayerStore, typeormPlayerStore } from './support/player-store.js';
import { describeIdRoundTrip, playerIds } from './support/round-trip.js';

// NestJS 12 on its default Express platform with TypeORM (@snowkey/typeorm), the pairing where
// "Do not know how to serialize a BigInt" meets most users: ParseIdPipe on every id coming in,
// IdJsonInterceptor on everything going out. Constructor injection names its token, as the
// test transform emits no decorator metadata.
const STORE = Symbol('PlayerStore');
const view = (p: Player) => ({ id: p.id, publicId: playerIds.encode(p.id), name: p.name });

@Controller('players')
class PlayersController {
  constructor(@Inject(STORE) private readonly store: PlayerStore) {}

  @Post()
  async create(@Body('name') name: string) {
    return view(await this.store.create(String(name)));
  }

  @Get(':id')
  async find(@Param('id', ParseIdPipe) id: bigint) {
    const found = await this.store.find(id);
    if (!found) throw new NotFoundException();
    return view(found);
  }

  @Post('rename')
  @HttpCode(200)
  async rename(@Body('id', ParseIdPipe) id: bigint, @Body('name') name: string) {
    if (!(await this.store.rename(id, name))) throw new NotFoundException();
    return { id, name };
  }
}

@Controller('public/players')
class PublicPlayersController {
  constructor(@Inject(STORE) private readonly store: PlayerStore) {}

  @Get(':publicId')
  async find(@Param('publicId', new ParseIdPipe(playerIds)) id: bigint) {
    const found = await this.store.find(id);
    if (!found) throw new NotFoundException();
    return view(found);
  }
}

@Module({})
class AppModule {
  static with(store: PlayerStore): DynamicModule {
    return {
      module: AppModule,
      controllers: [PlayersController, PublicPlayersController],
      providers: [{ provide: STORE, useValue: store }],
    };
  }
}

async function startNest(store: PlayerStore) {
  const app = await NestFactory.create(AppModule.with(store), { logger: false, abortOnError: false });
  app.useGlobalInterceptors(new IdJsonInterceptor());
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

describeIdRoundTrip('nestjs + @snowkey/typeorm', (db, ids) => typeormPlayerStore(db, ids), startNest);
