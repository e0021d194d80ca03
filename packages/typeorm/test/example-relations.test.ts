import 'reflect-metadata';
import { Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { attachSnowflakes } from '../src/index.js';
import { newDataSource } from './support/data-source.js';
import { Guild, gameEntities, Item, Player } from './support/game-entities.js';

describeEachDialect('example: guild, players and items end to end', (ctx) => {
  let ds: DataSource;
  const ids = new Snowflake({ workerId: 1 });
  const serials = new Snowflake({ workerId: 9 });

  beforeAll(async () => {
    ds = newDataSource(ctx.db, gameEntities, { synchronize: true });
    await ds.initialize();
    attachSnowflakes(ds, { generator: ids, generators: { serials } });
  });
  afterAll(() => ds?.destroy());

  test('GIVEN a guild saved with its players and their items in one cascading save inside a transaction THEN every row gets an id, the right foreign keys, and loads back as bigint', async () => {
    const guild = await ds.transaction((m) =>
      m.save(
        m.create(Guild, {
          name: 'Dawn',
          players: [
            { name: 'aria', items: [{ label: 'sword' }, { label: 'shield' }] },
            { name: 'bram', items: [{ label: 'bow' }] },
          ],
        }),
      ),
    );
    const [aria, bram] = guild.players!;

    // Raw SQL: the rows and their foreign keys, as stored.
    expect(await ctx.db.query('SELECT id, name FROM guild')).toEqual([
      { id: String(guild.id), name: 'Dawn' },
    ]);
    expect(await ctx.db.query('SELECT id, name, guild_id FROM player ORDER BY name')).toEqual([
      { id: String(aria!.id), name: 'aria', guild_id: String(guild.id) },
      { id: String(bram!.id), name: 'bram', guild_id: String(guild.id) },
    ]);
    const items = await ctx.db.query<{ id: string; serial_no: string; label: string; owner_id: string }>(
      'SELECT id, serial_no, label, owner_id FROM item ORDER BY label',
    );
    const expectedItems = [...aria!.items!, ...bram!.items!]
      .map((it) => ({
        id: String(it.id),
        serial_no: String(it.serialNo),
        label: it.label,
        owner_id: String(bram!.items!.includes(it) ? bram!.id : aria!.id),
      }))
      .sort((a, b) => a.label.localeCompare(b.label));
    expect(items).toEqual(expectedItems);

    // Each column took its ids from its own generator.
    for (const row of [guild, aria!, bram!, ...aria!.items!]) expect(ids.decode(row.id).workerId).toBe(1);
    for (const it of [...aria!.items!, ...bram!.items!]) expect(serials.decode(it.serialNo).workerId).toBe(9);

    // Loaded back through TypeORM, with relations: every key is an exact bigint.
    const loaded = await ds.getRepository(Guild).findOneOrFail({
      where: { id: guild.id },
      relations: { players: { items: true } },
      order: { players: { name: 'ASC', items: { label: 'ASC' } } },
    });
    expect(loaded.id).toBe(guild.id);
    expect(loaded.players!.map((p) => [p.id, p.guildId])).toEqual([
      [aria!.id, guild.id],
      [bram!.id, guild.id],
    ]);
    expect(loaded.players![0]!.items!.map((it) => [it.label, it.ownerId])).toEqual([
      ['shield', aria!.id],
      ['sword', aria!.id],
    ]);
    const byOwner = await ds.getRepository(Item).findBy({ ownerId: bram!.id });
    expect(byOwner.map((it) => [it.id, it.serialNo])).toEqual([
      [bram!.items![0]!.id, bram!.items![0]!.serialNo],
    ]);
  });

  test('GIVEN a player saved with a reference to an existing guild THEN its foreign key is that guild id', async () => {
    const guild = await ds.getRepository(Guild).save({ name: 'Dusk' });
    const player = await ds.getRepository(Player).save({ name: 'cato', guild: { id: guild.id } });

    expect(await ctx.db.query('SELECT guild_id FROM player WHERE id = ?', [player.id])).toEqual([
      { guild_id: String(guild.id) },
    ]);
  });
});
