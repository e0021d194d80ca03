import type { EntityManager, EntityTarget, InsertResult, ObjectLiteral } from 'typeorm';

export type Row = Record<string, unknown>;

/**
 * One of TypeORM's insert paths: inserts `rows` into `target` through `m`. Returns the objects it
 * handed back or filled, and the primary key `id` of each row as the call returned it (the saved
 * entities for `save`, `InsertResult.identifiers` for the others).
 */
export type InsertPath = (
  m: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  rows: readonly Row[],
) => Promise<{ objects: Row[]; returned: unknown[] }>;

const copies = (rows: readonly Row[]) => rows.map((row) => ({ ...row }));
const identifiers = (result: InsertResult) => result.identifiers.map((i) => i.id);

export const insertPaths: readonly (readonly [string, InsertPath])[] = [
  [
    'repository.save(entity), once per entity',
    async (m, target, rows) => {
      const objects: Row[] = [];
      for (const row of rows) objects.push(await m.getRepository(target).save(m.create(target, row)));
      return { objects, returned: objects.map((o) => o.id) };
    },
  ],
  [
    'repository.save([entities])',
    async (m, target, rows) => {
      const saved = await m.getRepository(target).save(rows.map((row) => m.create(target, row)));
      return { objects: saved, returned: saved.map((o) => o.id) };
    },
  ],
  [
    'manager.save(Entity, [plain objects])',
    async (m, target, rows) => {
      const saved = await m.save(target, copies(rows));
      return { objects: saved, returned: saved.map((o) => o.id) };
    },
  ],
  [
    'repository.insert(plain object), once per object',
    async (m, target, rows) => {
      const objects: Row[] = [];
      const returned: unknown[] = [];
      for (const values of copies(rows)) {
        returned.push(...identifiers(await m.getRepository(target).insert(values)));
        objects.push(values);
      }
      return { objects, returned };
    },
  ],
  [
    'repository.insert([plain objects])',
    async (m, target, rows) => {
      const values = copies(rows);
      return { objects: values, returned: identifiers(await m.getRepository(target).insert(values)) };
    },
  ],
  [
    'manager.insert(Entity, [entities])',
    async (m, target, rows) => {
      const values = rows.map((row) => m.create(target, row));
      return { objects: values, returned: identifiers(await m.insert(target, values)) };
    },
  ],
  [
    'createQueryBuilder().insert().into(Entity).values([...])',
    async (m, target, rows) => {
      const values = copies(rows);
      const result = await m.createQueryBuilder().insert().into(target).values(values).execute();
      return { objects: values, returned: identifiers(result) };
    },
  ],
  [
    'createQueryBuilder().insert().into(table name).values([...])',
    async (m, target, rows) => {
      const values = copies(rows);
      const table = m.getRepository(target).metadata.tableName;
      const result = await m.createQueryBuilder().insert().into(table).values(values).execute();
      return { objects: values, returned: identifiers(result) };
    },
  ],
];
