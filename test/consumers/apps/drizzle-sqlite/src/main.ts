// An ESM app (top-level await) that follows the README's SQLite set-up.
import { exactSqliteIntegers, Snowflake } from '@snowkey/core';
import { snowflakeId, snowflakeRef } from '@snowkey/drizzle/sqlite-core';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

const generator = new Snowflake({ workerId: 1 });
const players = sqliteTable('players', {
  id: snowflakeId(generator).primaryKey(),
  name: text().notNull().unique(),
  level: integer().notNull(),
});
const items = sqliteTable('items', {
  id: snowflakeId(generator).primaryKey(),
  ownerId: snowflakeRef('owner_id')
    .notNull()
    .references(() => players.id),
  kind: text().notNull(),
});

const sqlite = new Database(process.env.DATABASE_URL!.replace(/^file:/, ''));
exactSqliteIntegers(sqlite);
const db = drizzle(sqlite);

const [aria] = await db.insert(players).values({ name: 'Aria', level: 1 }).returning();
const ariaId: bigint = aria!.id;
const swords = await db
  .insert(items)
  .values([
    { ownerId: ariaId, kind: 'sword' },
    { ownerId: ariaId, kind: 'shield' },
  ])
  .returning({ id: items.id, kind: items.kind });
await db.insert(players).values({ id: 42n, name: 'Imported', level: 9 });
const read = await db.select().from(players);
sqlite.close();

const result = {
  players: { Aria: ariaId, Imported: 42n },
  items: Object.fromEntries(swords.map((s) => [s.kind, s.id])),
  readBack: read.every((row) => typeof row.id === 'bigint') && read.some((row) => row.id === ariaId),
};
console.log(JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
