import 'reflect-metadata';
import { Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { attachSnowflakes } from '../src/index.js';
import { newDataSource } from './support/data-source.js';
import { gameEntities, Player } from './support/game-entities.js';
import { recording } from './support/recording-generator.js';

describeEachDialect('typeorm upsert', (ctx) => {
  let dataSource: DataSource;
  const generator = recording(new Snowflake({ workerId: 7 }));

  beforeAll(async () => {
    dataSource = newDataSource(ctx.db, gameEntities, { synchronize: true });
    await dataSource.initialize();
    attachSnowflakes(dataSource, { generator, generators: { serials: new Snowflake({ workerId: 8 }) } });
  });
  afterAll(() => dataSource?.destroy());

  const storedIds = (name: string) => ctx.db.query('SELECT id FROM player WHERE name = ?', [name]);

  test('GIVEN repository.upsert of a new row THEN the row is stored with a generated id, the one on the object and in identifiers', async () => {
    const fresh: { id?: bigint; name: string } = { name: 'upsert-new' };
    const result = await dataSource.getRepository(Player).upsert(fresh, ['name']);

    expect(generator.issued).toContain(fresh.id);
    expect(result.identifiers).toEqual([{ id: fresh.id }]);
    expect(await storedIds(fresh.name)).toEqual([{ id: String(fresh.id) }]);
  });

  // The caveat the README documents. TypeORM 1.x gives a subscriber neither the conflict target
  // nor the statement, so the id generated for the INSERT cannot be swapped for the stored one.
  test('GIVEN repository.upsert of a row that exists THEN the stored id is kept, but the object and identifiers carry the unused generated id, and a read by the conflict key gives the stored one', async () => {
    const repo = dataSource.getRepository(Player);
    const first = await repo.save({ name: 'upsert-again' });
    const again: { id?: bigint; name: string } = { name: 'upsert-again' };
    const result = await repo.upsert(again, ['name']);

    expect(await storedIds(again.name)).toEqual([{ id: String(first.id) }]);
    expect(again.id).not.toBe(first.id);
    expect(generator.issued).toContain(again.id);
    expect(result.identifiers).toEqual([{ id: again.id }]);
    expect((await repo.findOneByOrFail({ name: again.name })).id).toBe(first.id);
  });
});
