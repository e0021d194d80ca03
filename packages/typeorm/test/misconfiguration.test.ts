import 'reflect-metadata';
import { exactSqliteIntegers, InvalidArgumentError, Snowflake } from '@snowkey/core';
import { describeEachDialect, selectedDialects } from '@snowkey/test-harness';
import pg from 'pg';
import { Column, DataSource, type DataSourceOptions, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { afterEach, describe, expect, test } from 'vitest';
import { attachSnowflakes, SnowflakeColumn, SnowflakeConfigError } from '../src/index.js';
import { newDataSource } from './support/data-source.js';
import { Guild, gameEntities } from './support/game-entities.js';

@Entity('solo')
class Solo {
  @SnowflakeColumn() id!: bigint;
  @Column({ type: 'varchar', length: 20 }) name!: string;
}

@Entity('typed_number')
class TypedNumber {
  @SnowflakeColumn() id!: number;
}

@Entity('union_not_nullable')
class UnionNotNullable {
  @SnowflakeColumn() id!: bigint;
  // A union is recorded as Object; only a nullable column may be typed so.
  @SnowflakeColumn({ primary: false }) orderNo!: bigint | null;
}

@Entity('plain')
class Plain {
  @Column({ type: 'int', primary: true }) id!: number;
}

@Entity('fk_as_snowflake')
class FkAsSnowflake {
  @SnowflakeColumn() id!: bigint;
  @SnowflakeColumn({ primary: false, name: 'guild_id' }) guildId!: bigint;
  @ManyToOne(() => Guild)
  @JoinColumn({ name: 'guild_id' })
  guild!: Guild;
}

const opened: DataSource[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((ds) => (ds.isInitialized ? ds.destroy() : undefined)));
});

function sqlite(entities: DataSourceOptions['entities'], extra: Record<string, unknown> = {}): DataSource {
  const ds = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities,
    prepareDatabase: exactSqliteIntegers,
    ...extra,
  } as DataSourceOptions);
  opened.push(ds);
  return ds;
}

async function initialized(entities: DataSourceOptions['entities'], extra: Record<string, unknown> = {}) {
  const ds = sqlite(entities, extra);
  await ds.initialize();
  return ds;
}

function configError(run: () => unknown): SnowflakeConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(SnowflakeConfigError);
    return err as SnowflakeConfigError;
  }
  throw new Error('expected a SnowflakeConfigError');
}

const generator = new Snowflake({ workerId: 1 });

describe('attachSnowflakes refuses a misconfigured DataSource at start-up', () => {
  test.each([
    [
      'no generator for Solo.id and TypedNumber.id',
      [Solo, TypedNumber],
      {},
      ['Solo.id has no generator', 'TypedNumber.id has no generator', 'TypedNumber.id is typed Number'],
    ],
    [
      'Item.serialNo naming a generator "serials" that was not given',
      gameEntities,
      { generator },
      ['Item.serialNo asks for the generator "serials" but attachSnowflakes got no named generators'],
    ],
    [
      'a snowflake property typed number',
      [TypedNumber],
      { generator },
      ['TypedNumber.id is typed Number but a snowflake column must be typed bigint'],
    ],
    [
      'a non-nullable snowflake property typed bigint | null',
      [UnionNotNullable],
      { generator },
      ['UnionNotNullable.orderNo is typed Object but a snowflake column must be typed bigint'],
    ],
    [
      'a @SnowflakeColumn that is a relation join column',
      [FkAsSnowflake, ...gameEntities],
      { generator, generators: { serials: generator } },
      ["FkAsSnowflake.guildId is a relation's join column"],
    ],
    [
      'no @SnowflakeColumn at all',
      [Plain],
      { generator },
      ['no entity of this DataSource has a @SnowflakeColumn'],
    ],
  ])(
    'GIVEN %s THEN it throws a SnowflakeConfigError listing each problem',
    async (_title, entities, options, expected) => {
      const ds = await initialized(entities);
      const err = configError(() => attachSnowflakes(ds, options));

      expect(err.problems).toEqual(expected.map((text) => expect.stringContaining(text)));
      for (const text of expected) expect(err.message).toContain(text);
      expect(ds.subscribers).toHaveLength(0);
    },
  );

  test('GIVEN attachSnowflakes before initialize() with a missing generator THEN initialize() rejects and leaves the DataSource closed', async () => {
    const ds = sqlite([Solo]);
    attachSnowflakes(ds, {});

    await expect(ds.initialize()).rejects.toThrow(SnowflakeConfigError);
    expect(ds.isInitialized).toBe(false);
  });

  test('GIVEN attachSnowflakes before initialize() THEN the ids are assigned once it is initialised', async () => {
    const ds = sqlite([Solo], { synchronize: true });
    attachSnowflakes(ds, {});
    attachSnowflakes(ds, { generator }); // the last call wins

    await ds.initialize();
    const solo = await ds.getRepository(Solo).save({ name: 'g' });
    expect(typeof solo.id).toBe('bigint');
    expect(await ds.query('SELECT CAST(id AS TEXT) AS id FROM solo')).toEqual([{ id: String(solo.id) }]);
  });

  test('GIVEN better-sqlite3 without exactSqliteIntegers THEN it names the prepareDatabase option', async () => {
    const ds = await initialized([Solo], { prepareDatabase: undefined });
    const err = configError(() => attachSnowflakes(ds, { generator }));
    expect(err.problems).toEqual([expect.stringContaining('set `prepareDatabase: exactSqliteIntegers`')]);
  });

  test('GIVEN a second attachSnowflakes THEN its generator replaces the first and one subscriber remains', async () => {
    const ds = await initialized([Solo], { synchronize: true });
    attachSnowflakes(ds, { generator: new Snowflake({ workerId: 1 }) });
    const second = new Snowflake({ workerId: 2 });
    attachSnowflakes(ds, { generator: second });

    const solo = await ds.getRepository(Solo).save({ name: 'g' });
    expect(second.decode(solo.id).workerId).toBe(2);
    expect(ds.subscribers).toHaveLength(1);
  });
});

describe('bad arguments are refused where they are written', () => {
  test.each([
    ['generator', { generator: { next: () => 1n } }],
    ['generators.serials', { generators: { serials: 42 } }],
  ])(
    'GIVEN attachSnowflakes with a bad %s THEN an InvalidArgumentError names it',
    async (argument, options) => {
      const ds = sqlite([Solo]);
      expect(() => attachSnowflakes(ds, options as never)).toThrow(
        expect.objectContaining({ name: 'InvalidArgumentError', argument }),
      );
    },
  );

  test.each([
    ['a safe Number', 42],
    ['a digit string', '42'],
  ])(
    'GIVEN a generator whose nextId returns %s THEN save rejects with an InvalidArgumentError naming generator.nextId() and stores no row',
    async (_title, id) => {
      const ds = await initialized([Solo], { synchronize: true });
      attachSnowflakes(ds, { generator: { nextId: () => id as unknown as bigint } });

      await expect(ds.getRepository(Solo).save({ name: 'g' })).rejects.toThrow(
        expect.objectContaining({ name: 'InvalidArgumentError', argument: 'generator.nextId()' }),
      );
      expect(await ds.query('SELECT COUNT(*) AS n FROM solo')).toEqual([{ n: 0 }]);
    },
  );

  test.each([
    ['nullable', { nullable: true }],
    ['unique', { unique: true }],
    ['generator', { generator: 42 }],
    ['generator', { generator: '' }],
  ])('GIVEN @SnowflakeColumn with a bad %s THEN an InvalidArgumentError names it', (argument, options) => {
    expect(() => SnowflakeColumn(options as never)).toThrow(InvalidArgumentError);
    expect(() => SnowflakeColumn(options as never)).toThrow(`"${argument}"`);
  });
});

const only = (d: 'postgres' | 'mysql') => selectedDialects().filter((s) => s === d);

describeEachDialect(
  'mysql2 with supportBigNumbers: false',
  (ctx) => {
    test('GIVEN supportBigNumbers: false THEN attachSnowflakes names the option', async () => {
      const ds = newDataSource(ctx.db, [Solo], { supportBigNumbers: false });
      opened.push(ds);
      await ds.initialize();
      const err = configError(() => attachSnowflakes(ds, { generator }));
      expect(err.problems).toEqual([expect.stringContaining('remove `supportBigNumbers: false`')]);
    });
  },
  { dialects: only('mysql') },
);

describeEachDialect(
  'pg with an INT8 type parser that returns Number',
  (ctx) => {
    test('GIVEN types.setTypeParser(20, Number) THEN attachSnowflakes names the parser', async () => {
      const original = pg.types.getTypeParser(20, 'text');
      pg.types.setTypeParser(20, (v: string) => Number(v));
      try {
        const ds = newDataSource(ctx.db, [Solo], { driver: pg });
        opened.push(ds);
        await ds.initialize();
        const err = configError(() => attachSnowflakes(ds, { generator }));
        expect(err.problems).toEqual([
          expect.stringContaining(
            'a pg type parser for INT8 (OID 20) turns 9223372036854775807 into the Number',
          ),
        ]);
      } finally {
        pg.types.setTypeParser(20, original);
      }
    });
  },
  { dialects: only('postgres') },
);
