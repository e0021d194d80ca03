import { type IdGenerator, toIdString } from '@snowkey/core';
import { knexSqlClient, snowkeyKnex } from '@snowkey/knex';
import { openKnex } from '../../packages/knex/test/open-knex.js';
import type { AdapterDriver, AdapterSession, ItemInput } from '../conformance/adapter-driver.js';
import type { TestDatabase } from '../helpers/test-database.js';

/**
 * @snowkey/knex under the conformance suite: single rows through `sk.insert`, bulk through one
 * `sk.batchInsert` (its chunks share one transaction), a parent and its children through two
 * inserts in `sk.transaction` (Knex has no cascade), reads through plain Knex with
 * `withBigintReads`.
 */
export const knexDriver: AdapterDriver = {
  name: 'knex',
  nullKey: 'generated',
  async openSqlClient(db: TestDatabase) {
    const knex = openKnex(db);
    return { client: knexSqlClient(knex), close: () => knex.destroy() };
  },
  async open(db: TestDatabase, generator: IdGenerator): Promise<AdapterSession> {
    const knex = openKnex(db);
    const sk = snowkeyKnex(knex, { generator, tables: { sk_item: 'id', sk_parent: 'id', sk_child: 'id' } });
    return {
      async insertOne(input: ItemInput) {
        const [row] = await sk.insert('sk_item', input);
        return row!.id;
      },
      async insertMany(input: ItemInput[]) {
        return (await sk.batchInsert('sk_item', input)).map((r) => r.id);
      },
      async insertParentWithChildren(parentName, childLabels) {
        return sk.transaction(async (tx) => {
          const [parent] = await tx.insert('sk_parent', { name: parentName });
          const children = await tx.insert(
            'sk_child',
            childLabels.map((label) => ({ parent_id: parent!.id, label })),
          );
          return { parentId: parent!.id, childIds: children.map((c) => c.id) };
        });
      },
      async insertInTransaction(input: ItemInput[]) {
        return sk.transaction(async (tx) => {
          const ids: bigint[] = [];
          for (const it of input) ids.push((await tx.insert('sk_item', it))[0]!.id);
          return ids;
        });
      },
      async findItem(id: bigint) {
        const row: { id: bigint; name: string } | undefined = await knex('sk_item')
          .where({ id })
          .first('id', 'name');
        return row ?? null;
      },
      async findItemIdsBetween(minId: bigint, maxId: bigint) {
        // Knex's binding types have no bigint: the docs' recipe binds the bounds as decimal strings.
        const rows: { id: bigint }[] = await knex('sk_item')
          .whereBetween('id', [toIdString(minId), toIdString(maxId)])
          .orderBy('id')
          .select('id');
        return rows.map((r) => r.id);
      },
      async close() {
        await knex.destroy();
      },
    };
  },
};
