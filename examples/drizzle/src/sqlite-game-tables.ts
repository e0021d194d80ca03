import type { IdGeneratorSource } from '@snowkey/drizzle';
import { snowflakeId, snowflakeRef } from '@snowkey/drizzle/sqlite-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The game's tables (examples/merge's schema) for `sqliteTable`: every key a `snowflakeId` filled from
 * `generator`, every foreign key a `snowflakeRef`, times as `integer` ms.
 *
 * @example
 * const t = sqliteGameTables(new Snowflake({ layout: layouts.gameServer, serverId: 1 }));
 * await db.insert(t.players).values({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }).returning();
 */
export function sqliteGameTables(generator: IdGeneratorSource) {
  const millis = (name: string) => integer(name).notNull();
  const players = sqliteTable('players', {
    id: snowflakeId(generator).primaryKey(),
    name: text().notNull().unique(),
    homeServer: integer('home_server').notNull(),
    level: integer().notNull(),
    createdAt: millis('created_at'),
  });
  const guilds = sqliteTable('guilds', {
    id: snowflakeId(generator).primaryKey(),
    name: text().notNull().unique(),
    leaderId: snowflakeRef('leader_id').notNull(),
    createdAt: millis('created_at'),
  });
  const guildMembers = sqliteTable('guild_members', {
    id: snowflakeId(generator).primaryKey(),
    guildId: snowflakeRef('guild_id').notNull(),
    playerId: snowflakeRef('player_id').notNull(),
    role: text().notNull(),
    joinedAt: millis('joined_at'),
  });
  const items = sqliteTable('items', {
    id: snowflakeId(generator).primaryKey(),
    ownerId: snowflakeRef('owner_id').notNull(),
    kind: text().notNull(),
    qty: integer().notNull(),
    createdAt: millis('created_at'),
  });
  const mail = sqliteTable('mail', {
    id: snowflakeId(generator).primaryKey(),
    senderId: snowflakeRef('sender_id').notNull(),
    recipientId: snowflakeRef('recipient_id').notNull(),
    itemId: snowflakeRef('item_id'),
    subject: text().notNull(),
    sentAt: millis('sent_at'),
  });
  return { players, guilds, guildMembers, items, mail };
}

/** The SQLite game tables of one server. */
export type SQLiteGameTables = ReturnType<typeof sqliteGameTables>;
