import 'reflect-metadata';
import { Snowflake } from '@snowkey/core';
import type { DataSource, EntityManager } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { describeEachDialect } from '../../../test/helpers/databases.js';
import { attachSnowflakes } from '../src/index.js';
import { newDataSource } from './support/data-source.js';
import { gameEntities, Player } from './support/game-entities.js';
import { recording } from './support/recording-generator.js';

interface PlayerInput {
  id?: bigint;
  name: string;
}

/** An insert path: inserts `rows` through `m`; returns the objects it handed back or filled, and the ids the call returned. */
type InsertPath = (
  m: EntityManager,
  rows: PlayerInput[],
) => Promise<{ objects: { id?: bigint }[]; returned: unknown[] }>;

const paths: [string, InsertPath][] = [
  [
    'repository.save(entity), once per entity',
    async (m, rows) => {
      const objects: Player[] = [];
      for (const row of rows) objects.push(await m.getRepository(Player).save(m.create(Player, row)));
      return { objects, returned: objects.map((p) => p.id) };
    },
  ],
  [
    'repository.save([entities])',
    async (m, rows) => {
      const saved = await m.getRepository(Player).save(rows.map((row) => m.create(Player, row)));
      return { objects: saved, returned: saved.map((p) => p.id) };
    },
  ],
  [
    'repository.insert(plain object), once per object',
    async (m, rows) => {
      const objects: PlayerInput[] = [];
      const returned: unknown[] = [];
      for (const row of rows) {
        const values = { ...row };
        const result = await m.getRepository(Player).insert(values);
        objects.push(values);
        returned.push(...result.identifiers.map((i) => i.id));
      }
      return { objects, returned };
    },
  ],
  [
    'repository.insert([plain objects])',
    async (m, rows) => {
      const values = rows.map((row) => ({ ...row }));
      const result = await m.getRepository(Player).insert(values);
      return { objects: values, returned: result.identifiers.map((i) => i.id) };
    },
  ],
  [
    'manager.insert(Entity, [...])',
    async (m, rows) => {
      const values = rows.map((row) => m.create(Player, row));
      const result = await m.insert(Player, values);
      return { objects: values, returned: result.identifiers.map((i) => i.id) };
    },
  ],
  [
    'createQueryBuilder().insert().into(Entity).values([...])',
    async (m, rows) => {
      const values = rows.map((row) => ({ ...row }));
      const result = await m.createQueryBuilder().insert().into(Player).values(values).execute();
      return { objects: values, returned: result.identifiers.map((i) => i.id) };
    },
  ],
];

const inTransaction =
  (path: InsertPath): InsertPath =>
  (m, rows) =>
    m.transaction((tx) => path(tx, rows));

const cases = paths.flatMap(([name, path]) => [
  [name, path] as const,
  [`${name} inside dataSource.transaction`, inTransaction(path)] as const,
]);

describeEachDialect('typeorm insert paths', (ctx) => {
  let dataSource: DataSource;
  const generator = recording(new Snowflake({ workerId: 7 }));
  let counter = 0;

  beforeAll(async () => {
    dataSource = newDataSource(ctx.db, gameEntities, { synchronize: true });
    await dataSource.initialize();
    attachSnowflakes(dataSource, { generator, generators: { serials: new Snowflake({ workerId: 8 }) } });
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });
  beforeEach(() => {
    generator.issued.length = 0;
  });

  describe.each(cases)('%s', (_title, path) => {
    test('GIVEN players without ids THEN each gets a fresh id before the INSERT, on the object and in what the call returns, equal to the stored row', async () => {
      const names = [`p${++counter}`, `p${++counter}`, `p${++counter}`];
      const { objects, returned } = await path(
        dataSource.manager,
        names.map((name) => ({ name })),
      );

      const ids = objects.map((o) => o.id);
      for (const id of ids) expect(typeof id).toBe('bigint');
      expect(returned).toEqual(ids);
      // The table has no default: a stored row's id can only come from this generator, in call order.
      expect(ids).toEqual(generator.issued);
      for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);

      const rows = await ctx.db.query<{ id: string; name: string }>(
        `SELECT id, name FROM player WHERE name IN (${names.map(() => '?').join(', ')}) ORDER BY id`,
        names,
      );
      expect(rows).toEqual(ids.map((id, i) => ({ id: String(id), name: names[i] })));
    });

    test('GIVEN players whose ids the caller set (2^53+1 and up) THEN those ids are stored and none is generated', async () => {
      const rows = [1n, 2n, 3n].map((k) => ({
        id: 2n ** 53n + k + BigInt(counter),
        name: `explicit${++counter}`,
      }));
      const { objects, returned } = await path(dataSource.manager, rows);

      expect(objects.map((o) => o.id)).toEqual(rows.map((r) => r.id));
      expect(returned).toEqual(rows.map((r) => r.id));
      expect(generator.issued).toEqual([]);
      const stored = await ctx.db.query<{ id: string; name: string }>(
        `SELECT id, name FROM player WHERE name IN (${rows.map(() => '?').join(', ')}) ORDER BY id`,
        rows.map((r) => r.name),
      );
      expect(stored).toEqual(rows.map((r) => ({ id: String(r.id), name: r.name })));
    });
  });

  test('GIVEN repository.upsert of a new row THEN it gets a generated id; GIVEN the same name again THEN the stored id is not rewritten', async () => {
    const repo = dataSource.getRepository(Player);
    const fresh: PlayerInput = { name: `upsert${++counter}` };
    await repo.upsert(fresh, ['name']);
    expect(generator.issued).toEqual([fresh.id]);
    const read = () => ctx.db.query('SELECT id FROM player WHERE name = ?', [fresh.name]);
    expect(await read()).toEqual([{ id: String(fresh.id) }]);

    await repo.upsert({ name: fresh.name }, ['name']);
    expect(await read()).toEqual([{ id: String(fresh.id) }]);
  });
});
