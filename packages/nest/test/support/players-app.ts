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
import type { Clock, IdGenerator } from '@snowkey/core';
import { exactSqliteIntegers } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import { attachSnowflakes, SnowflakeColumn, typeormSqlClient } from '@snowkey/typeorm';
import { Column, DataSource, type DataSourceOptions, Entity, type Repository } from 'typeorm';
import {
  IdParam,
  SNOWKEY_GENERATOR,
  type SnowkeyLeaseOptions,
  SnowkeyModule,
  SnowkeyService,
} from '../../src/index.js';

// A Nest application as a TypeORM user writes one: a global database module that owns the
// DataSource (and destroys it on shutdown, as @nestjs/typeorm does), SnowkeyModule leasing its
// node id through that DataSource, and a controller. Constructor injection names its tokens, as
// the test transform emits no decorator metadata.

@Entity('players')
export class PlayerEntity {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 100 }) name!: string;
}

/** The players table, the same statement on PostgreSQL, MySQL and SQLite. */
export const PLAYERS_DDL =
  'CREATE TABLE IF NOT EXISTS players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL)';

const PLAYERS = Symbol('PLAYERS');

function dataSourceOptions(db: TestDatabase): DataSourceOptions {
  const entities = [PlayerEntity];
  return db.dialect === 'postgres'
    ? { type: 'postgres', url: db.url, entities }
    : db.dialect === 'mysql'
      ? { type: 'mysql', url: db.url, entities }
      : { type: 'better-sqlite3', database: db.filename!, entities, prepareDatabase: exactSqliteIntegers };
}

class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  async onApplicationShutdown(): Promise<void> {
    await this.dataSource.destroy();
  }
}

@Global()
@Module({})
class DatabaseModule {
  static on(db: TestDatabase): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DataSource, useFactory: () => new DataSource(dataSourceOptions(db)).initialize() },
        DataSourceCloser,
      ],
      exports: [DataSource],
    };
  }
}

@Controller('players')
class PlayersController {
  constructor(@Inject(PLAYERS) private readonly players: Repository<PlayerEntity>) {}

  @Post()
  create(@Body('name') name: string) {
    return this.players.save(this.players.create({ name: String(name) }));
  }

  @Get(':id')
  async find(@IdParam('id') id: bigint) {
    const found = await this.players.findOneBy({ id });
    if (!found) throw new NotFoundException();
    return found;
  }
}

@Module({})
class PlayersAppModule {
  static on(db: TestDatabase, options: PlayersAppOptions): DynamicModule {
    const { lease = {}, segment, clock, imports = [] } = options;
    return {
      module: PlayersAppModule,
      imports: [
        // After the module that owns the DataSource: Nest shuts global modules down in the reverse
        // of their order here, so the lease is released before the DataSource is destroyed.
        DatabaseModule.on(db),
        SnowkeyModule.forRootAsync({
          inject: [DataSource],
          useFactory: (dataSource: DataSource) =>
            segment
              ? { segment: { client: typeormSqlClient(dataSource), ...segment } }
              : { lease: { client: typeormSqlClient(dataSource), ...lease }, ...(clock && { clock }) },
          healthPath: 'healthz',
        }),
        ...imports,
      ],
      controllers: [PlayersController],
      providers: [
        {
          provide: PLAYERS,
          useFactory: (dataSource: DataSource, generator: IdGenerator) => {
            attachSnowflakes(dataSource, { generator });
            return dataSource.getRepository(PlayerEntity);
          },
          inject: [DataSource, SNOWKEY_GENERATOR],
        },
      ],
    };
  }
}

/** What a test changes in the players application. */
export interface PlayersAppOptions {
  /** More leaseNodeId options (`heartbeat: false`, `ttlMs`, ...). */
  lease?: Omit<SnowkeyLeaseOptions['lease'], 'client'>;
  /** A segment allocator of this tag instead of a leased Snowflake. */
  segment?: { tag: string; step?: number };
  /** The clock of lease and generator. */
  clock?: Clock;
  /** More modules of the application (a terminus health module). */
  imports?: NonNullable<DynamicModule['imports']>;
}

/** A players application, listening on 127.0.0.1. */
export interface RunningApp {
  readonly url: string;
  readonly snowkey: SnowkeyService;
  close(): Promise<void>;
}

/**
 * Starts the players application on `db` over HTTP on 127.0.0.1 (an ephemeral port).
 *
 * @example
 * const app = await startPlayersApp(ctx.db);
 */
export async function startPlayersApp(
  db: TestDatabase,
  options: PlayersAppOptions = {},
): Promise<RunningApp> {
  const app = await NestFactory.create(PlayersAppModule.on(db, options), {
    logger: false,
    abortOnError: false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, snowkey: app.get(SnowkeyService), close: () => app.close() };
}
