import type { IdGenerator } from '@snowkey/core';
import { kyselySqlClient, snowkeyPlugin } from '@snowkey/kysely';
import type { ColumnType } from 'kysely';
import { openKysely } from '../../packages/kysely/test/open-kysely.js';
import type { AdapterDriver, AdapterSession, ItemInput } from '../conformance/adapter-driver.js';
import type { TestDatabase } from '../helpers/test-database.js';

/** A snowflake key: read as bigint, optional on insert (the plugin fills it), never updated. */
type Key = ColumnType<bigint, bigint | undefined, never>;

/** The conformance tables as a Kysely schema. */
interface Conformance {
  sk_item: { id: Key; name: string; qty: number };
  sk_parent: { id: Key; name: string };
  sk_child: { id: Key; parent_id: bigint; label: string };
}

/** Rows per INSERT of a bulk insert: SQLite's default limit is 32 766 bound parameters. */
const CHUNK = 1000;

/**
 * @snowkey/kysely under the conformance suite. Where the dialect has RETURNING (PostgreSQL,
 * SQLite) the plugin fills the ids inside the query and `returning('id')` hands them back; on
 * MySQL the rows get their ids first from `sk.withIds` and the plugin keeps them. Bulk inserts are
 * multi-row INSERTs of 1000 rows in one transaction; parent and children are two inserts in one
 * transaction (Kysely has no cascade); reads through Kysely with the README's driver settings.
 */
export const kyselyDriver: AdapterDriver = {
  name: 'kysely',
  nullKey: 'generated',
  async openSqlClient(db: TestDatabase) {
    const kysely = openKysely<Conformance>(db);
    return { client: kyselySqlClient(kysely), close: () => kysely.destroy() };
  },
  async open(db: TestDatabase, generator: IdGenerator): Promise<AdapterSession> {
    const sk = snowkeyPlugin({ generator, tables: { sk_item: 'id', sk_parent: 'id', sk_child: 'id' } });
    const kysely = openKysely<Conformance>(db, { plugins: [sk] });
    const returning = db.dialect !== 'mysql';

    type Executor = Pick<typeof kysely, 'insertInto'>;
    /** Inserts `rows` into `table` and returns their ids in order, the way this dialect allows. */
    async function insert(
      on: Executor,
      table: keyof Conformance,
      rows: readonly object[],
    ): Promise<bigint[]> {
      if (returning) {
        // The rows' types vary by table; the conformance inputs match them.
        const out = await on
          .insertInto(table)
          .values(rows as never)
          .returning('id')
          .execute();
        return out.map((r) => r.id);
      }
      const withIds = sk.withIds(table, rows);
      await on
        .insertInto(table)
        .values(withIds as never)
        .execute();
      return withIds.map((r) => r.id);
    }

    return {
      async insertOne(input: ItemInput) {
        return (await insert(kysely, 'sk_item', [input]))[0]!;
      },
      async insertMany(input: ItemInput[]) {
        return kysely.transaction().execute(async (trx) => {
          const ids: bigint[] = [];
          for (let i = 0; i < input.length; i += CHUNK) {
            ids.push(...(await insert(trx, 'sk_item', input.slice(i, i + CHUNK))));
          }
          return ids;
        });
      },
      async insertParentWithChildren(parentName, childLabels) {
        return kysely.transaction().execute(async (trx) => {
          const [parentId] = await insert(trx, 'sk_parent', [{ name: parentName }]);
          const childIds = await insert(
            trx,
            'sk_child',
            childLabels.map((label) => ({ parent_id: parentId!, label })),
          );
          return { parentId: parentId!, childIds };
        });
      },
      async insertInTransaction(input: ItemInput[]) {
        return kysely.transaction().execute(async (trx) => {
          const ids: bigint[] = [];
          for (const it of input) ids.push(...(await insert(trx, 'sk_item', [it])));
          return ids;
        });
      },
      async findItem(id: bigint) {
        const row = await kysely
          .selectFrom('sk_item')
          .select(['id', 'name'])
          .where('id', '=', id)
          .executeTakeFirst();
        return row ?? null;
      },
      async findItemIdsBetween(minId: bigint, maxId: bigint) {
        const rows = await kysely
          .selectFrom('sk_item')
          .select('id')
          .where((eb) => eb.between('id', minId, maxId))
          .orderBy('id')
          .execute();
        return rows.map((r) => r.id);
      },
      async close() {
        await kysely.destroy();
      },
    };
  },
};
