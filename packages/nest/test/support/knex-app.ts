import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  Body,
  Controller,
  type DynamicModule,
  Get,
  Global,
  Inject,
  Module,
  NotFoundException,
  type OnApplicationShutdown,
  Post,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { IdGenerator } from '@snowkey/core';
import { knexSqlClient, snowkeyKnex, withBigintReads } from '@snowkey/knex';
import type { TestDatabase } from '@snowkey/test-harness';
import knex, { type Knex } from 'knex';
import { IdParam, SNOWKEY_GENERATOR, SnowkeyModule, SnowkeyService } from '../../src/index.js';
import type { RunningApp } from './players-app.js';

// The players application on Knex: the lease's SqlClient is knexSqlClient over the application's
// own Knex instance, and rows go in through @snowkey/knex.

const KNEX = Symbol('KNEX');
const PLAYERS = Symbol('PLAYERS');

function openKnex(db: TestDatabase): Knex {
  const client = db.dialect === 'postgres' ? 'pg' : db.dialect === 'mysql' ? 'mysql2' : 'better-sqlite3';
  const connection =
    db.dialect === 'sqlite' ? { filename: db.filename! } : db.dialect === 'mysql' ? { uri: db.url } : db.url;
  return knex(withBigintReads({ client, connection, useNullAsDefault: true, pool: { min: 0, max: 4 } }));
}

class KnexCloser implements OnApplicationShutdown {
  constructor(@Inject(KNEX) private readonly knex: Knex) {}
  async onApplicationShutdown(): Promise<void> {
    await this.knex.destroy();
  }
}

@Global()
@Module({})
class KnexModule {
  static on(db: TestDatabase): DynamicModule {
    return {
      module: KnexModule,
      providers: [{ provide: KNEX, useFactory: () => openKnex(db) }, KnexCloser],
      exports: [KNEX],
    };
  }
}

interface Players {
  create(name: string): Promise<{ id: bigint; name: string }>;
  find(id: bigint): Promise<{ id: bigint; name: string } | undefined>;
}

@Controller('players')
class PlayersController {
  constructor(@Inject(PLAYERS) private readonly players: Players) {}

  @Post()
  create(@Body('name') name: string) {
    return this.players.create(String(name));
  }

  @Get(':id')
  async find(@IdParam('id') id: bigint) {
    return (await this.players.find(id)) ?? Promise.reject(new NotFoundException());
  }
}

@Module({})
class KnexAppModule {
  static on(db: TestDatabase): DynamicModule {
    return {
      module: KnexAppModule,
      imports: [
        KnexModule.on(db),
        SnowkeyModule.forRootAsync({
          inject: [KNEX],
          useFactory: (k: Knex) => ({ lease: { client: knexSqlClient(k) } }),
          healthPath: 'healthz',
        }),
      ],
      controllers: [PlayersController],
      providers: [
        {
          provide: PLAYERS,
          inject: [KNEX, SNOWKEY_GENERATOR],
          useFactory: (k: Knex, generator: IdGenerator): Players => {
            const sk = snowkeyKnex(k, { generator, tables: { players: 'id' } });
            return {
              async create(name) {
                const [row] = await sk.insert('players', { name });
                return { id: row!.id as bigint, name };
              },
              async find(id) {
                const row = await k('players').where({ id }).first();
                return row ? { id: row.id as bigint, name: row.name as string } : undefined;
              },
            };
          },
        },
      ],
    };
  }
}

/**
 * Starts the Knex players application on `db` over HTTP on 127.0.0.1.
 *
 * @example
 * const app = await startKnexApp(ctx.db);
 */
export async function startKnexApp(db: TestDatabase): Promise<RunningApp> {
  const app = await NestFactory.create(KnexAppModule.on(db), { logger: false, abortOnError: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, snowkey: app.get(SnowkeyService), close: () => app.close() };
}
