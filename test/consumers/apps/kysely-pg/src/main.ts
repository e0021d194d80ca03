// An ESM app (top-level await) that follows the README's PostgreSQL set-up.
import { Snowflake } from '@snowkey/core';
import { pgBigintTypes, snowkeyPlugin, verifyBigintReads } from '@snowkey/kysely';
import { type ColumnType, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

type Key = ColumnType<bigint, bigint | undefined, never>;
interface Database {
  players: { id: Key; name: string; level: number };
  items: { id: Key; serial_no: Key; label: string };
}

const sk = snowkeyPlugin({
  generator: new Snowflake({ workerId: 1 }),
  tables: { players: 'id', items: ['id', 'serial_no'] },
});
const db = new Kysely<Database>({
  dialect: new PostgresDialect({
    pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, types: pgBigintTypes(pg.types) }),
  }),
  plugins: [sk],
});
await verifyBigintReads(db);

const aria = await db
  .insertInto('players')
  .values({ name: 'Aria', level: 1 })
  .returning('id')
  .executeTakeFirstOrThrow();
const ariaId: bigint = aria.id;
const items = await db
  .insertInto('items')
  .values([{ label: 'sword' }, { label: 'shield' }])
  .returning(['id', 'serial_no', 'label'])
  .execute();
await db.insertInto('players').values({ id: 42n, name: 'Imported', level: 1 }).execute();
const read = await db.selectFrom('players').selectAll().where('name', '=', 'Aria').executeTakeFirstOrThrow();
await db.destroy();

const result = {
  players: { Aria: ariaId, Imported: 42n },
  items: Object.fromEntries(items.map((i) => [i.label, [i.id, i.serial_no]])),
  readBack: read.id === ariaId,
};
console.log(JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
