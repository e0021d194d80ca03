import { manualClock, Snowflake, UpsertReadBackError } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { recordingGenerator } from '@snowkey/test-harness/recording-generator';
import { DataTypes, Model, type Sequelize } from 'sequelize';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { attachSnowflakes, SnowflakeId } from '../src/index.js';
import { readBackUpsert } from '../src/upsert-read-back.js';
import { clearTables, createTables, defineModels } from './models.js';
import { openSequelize } from './open-sequelize.js';

describeEachDialect('sequelize write paths', (ctx) => {
  let sequelize: Sequelize;
  let models: ReturnType<typeof defineModels>;
  // The clock moves 1 ms per read, so ids never wait on the wall clock.
  const generator = recordingGenerator(
    new Snowflake({ workerId: 5, clock: manualClock(Date.UTC(2026, 0, 1), 1).now }),
  );
  const players = () =>
    ctx.db.query<{ id: string; name: string; level: number }>(
      'SELECT id, name, level FROM players ORDER BY id',
    );
  const issued = (id: unknown) => typeof id === 'bigint' && generator.issued.has(id);

  beforeAll(async () => {
    await createTables(ctx.db);
    sequelize = openSequelize(ctx.db);
    models = defineModels(sequelize);
    attachSnowflakes(sequelize, { generator });
  });
  afterAll(async () => {
    await sequelize?.close();
  });
  beforeEach(() => clearTables(ctx.db));

  test('GIVEN create THEN the row is stored under a generated id, which the instance carries as a bigint', async () => {
    const aria = await models.Player.create({ name: 'Aria' });
    expect(issued(aria.id)).toBe(true);
    expect(await players()).toEqual([{ id: String(aria.id), name: 'Aria', level: 1 }]);
  });

  test.each([
    ['without individual hooks (the default)', false],
    ['with individualHooks', true],
  ])(
    'GIVEN bulkCreate %s THEN missing and null ids are generated in input order and set ones kept',
    async (_label, individualHooks) => {
      const rows = await models.Player.bulkCreate(
        [{ name: 'a' }, { name: 'b', id: 42n }, { name: 'c', id: null }],
        { individualHooks },
      );
      const [a, b, c] = rows.map((r) => r.id);
      expect(b).toBe(42n);
      expect(issued(a) && issued(c) && a! < c!).toBe(true);
      expect(await players()).toEqual([
        { id: '42', name: 'b', level: 1 },
        { id: String(a), name: 'a', level: 1 },
        { id: String(c), name: 'c', level: 1 },
      ]);
    },
  );

  test('GIVEN a model with two snowflake attributes THEN both are filled, and a set one kept', async () => {
    const [sword, shield] = await models.Item.bulkCreate([
      { label: 'sword' },
      { label: 'shield', serialNo: 7n },
    ]);
    expect(issued(sword!.id) && issued(sword!.serialNo) && issued(shield!.id)).toBe(true);
    expect(shield!.serialNo).toBe(7n);
    expect(await ctx.db.query('SELECT serial_no FROM items ORDER BY id')).toEqual([
      { serial_no: String(sword!.serialNo) },
      { serial_no: '7' },
    ]);
  });

  test('GIVEN findOrCreate THEN the first call creates the row with a generated id and the second finds the same id', async () => {
    const [created, isNew] = await models.Player.findOrCreate({
      where: { name: 'Bo' },
      defaults: { level: 2 },
    });
    const [found, isNewAgain] = await models.Player.findOrCreate({
      where: { name: 'Bo' },
      defaults: { level: 9 },
    });
    expect([isNew, isNewAgain]).toEqual([true, false]);
    expect(issued(created.id)).toBe(true);
    expect(found.id).toBe(created.id);
    expect(await players()).toEqual([{ id: String(created.id), name: 'Bo', level: 2 }]);
  });

  test('GIVEN upsert of a new row THEN it is inserted under a generated id', async () => {
    await models.Player.upsert({ name: 'Cy', level: 3 });
    const [row] = await players();
    expect(issued(BigInt(row!.id))).toBe(true);
    expect(row).toMatchObject({ name: 'Cy', level: 3 });
  });

  test('GIVEN upsert of an existing row THEN the stored id is kept and the instance carries the stored id', async () => {
    const original = await models.Player.create({ name: 'Cy', level: 1 });
    const [upserted] = await models.Player.upsert({ name: 'Cy', level: 4 });
    expect(await players()).toEqual([{ id: String(original.id), name: 'Cy', level: 4 }]);
    expect(upserted.id).toBe(original.id);
  });

  test('GIVEN upsert with validate: false and no id THEN it is refused before any SQL, naming the option', async () => {
    await expect(models.Player.upsert({ name: 'Dee' }, { validate: false })).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      argument: 'options.validate',
    });
    expect(await players()).toEqual([]);
  });

  test('GIVEN SnowflakeId() copied with a spread, on models defined before and after attaching THEN upsert and save({ fields }) still write the generated id', async () => {
    const other = openSequelize(ctx.db);
    try {
      const define = (modelName: string) =>
        class extends Model {}.init(
          { id: { ...SnowflakeId(), comment: 'copied' }, name: DataTypes.STRING(100) },
          { sequelize: other, modelName, tableName: 'guilds', timestamps: false },
        );
      const Early = define('Early');
      attachSnowflakes(other, { generator });
      const Late = define('Late');
      await Early.upsert({ name: 'early' });
      await Late.upsert({ name: 'late' });
      await Late.create({ name: 'fields' }, { fields: ['name'] });
      const rows = await ctx.db.query<{ id: string; name: string }>(
        'SELECT id, name FROM guilds ORDER BY name',
      );
      expect(rows.map((r) => r.name)).toEqual(['early', 'fields', 'late']);
      expect(rows.every((r) => issued(BigInt(r.id)))).toBe(true);
    } finally {
      await other.close();
    }
  });

  test('GIVEN a create with a nested include (hasMany) THEN parent and children get ids and the children point at the parent', async () => {
    const guild = await models.Guild.create(
      { name: 'Owls', members: [{ nick: 'x' }, { nick: 'y' }] },
      { include: [models.members] },
    );
    expect(issued(guild.id) && guild.members!.every((m) => issued(m.id) && m.guildId === guild.id)).toBe(
      true,
    );
    expect(await ctx.db.query('SELECT id, guild_id, nick FROM members ORDER BY nick')).toEqual(
      guild.members!.map((m) => ({ id: String(m.id), guild_id: String(guild.id), nick: m.nick })),
    );
  });

  test('GIVEN a create with a nested belongsTo include THEN the parent is created first and the child points at it', async () => {
    const member = await models.Member.create(
      { nick: 'z', guild: { name: 'Larks' } },
      { include: [models.guild] },
    );
    expect(issued(member.guild!.id) && issued(member.id)).toBe(true);
    expect(await ctx.db.query('SELECT guild_id FROM members')).toEqual([
      { guild_id: String(member.guild!.id) },
    ]);
  });

  test('GIVEN bulkCreate with a nested include THEN every parent and child gets an id', async () => {
    const guilds = await models.Guild.bulkCreate(
      [
        { name: 'A', members: [{ nick: 'a1' }] },
        { name: 'B', members: [{ nick: 'b1' }, { nick: 'b2' }] },
      ],
      { include: [models.members] },
    );
    const stored = await ctx.db.query<{ guild_id: string }>('SELECT guild_id FROM members ORDER BY nick');
    expect(stored.map((r) => r.guild_id)).toEqual([guilds[0]!.id, guilds[1]!.id, guilds[1]!.id].map(String));
  });

  test('GIVEN an unmanaged transaction THEN rollback keeps none of its rows and commit keeps them with their ids', async () => {
    const rolledBack = await sequelize.transaction();
    await models.Player.create({ name: 'gone' }, { transaction: rolledBack });
    await rolledBack.rollback();
    const committed = await sequelize.transaction();
    const kept = await models.Player.create({ name: 'kept' }, { transaction: committed });
    await committed.commit();
    expect(await players()).toEqual([{ id: String(kept.id), name: 'kept', level: 1 }]);
  });

  test('GIVEN create with a fields list that leaves the id out THEN the id is still written', async () => {
    const player = await models.Player.create({ name: 'Eve', level: 7 }, { fields: ['name'] });
    expect(await players()).toEqual([{ id: String(player.id), name: 'Eve', level: 1 }]);
  });

  test('GIVEN hooks: false THEN no id is filled and the database refuses the NULL key', async () => {
    await expect(models.Player.create({ name: 'Hookless' }, { hooks: false })).rejects.toThrow(
      /null|cannot be null|doesn't have a default/i,
    );
    expect(await players()).toEqual([]);
  });

  test('GIVEN a loaded row saved again THEN its id is neither checked nor replaced', async () => {
    const created = await models.Player.create({ name: 'Fay' });
    const loaded = (await models.Player.findByPk(created.id))!;
    loaded.level = 8;
    await loaded.save();
    expect(await players()).toEqual([{ id: String(created.id), name: 'Fay', level: 8 }]);
  });

  test('GIVEN an upserted row that cannot be found again by its keys THEN the read-back throws UpsertReadBackError', async () => {
    const ghost = models.Player.build({ id: 99n, name: 'ghost' });
    await expect(readBackUpsert(ghost, { returning: false })).rejects.toBeInstanceOf(UpsertReadBackError);
    await expect(readBackUpsert(ghost, { returning: false })).rejects.toMatchObject({
      table: 'Player',
      matches: 0,
    });
  });
});
