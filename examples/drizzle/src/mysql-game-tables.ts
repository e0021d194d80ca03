import type { IdGeneratorSource } from '@snowkey/drizzle';
import { snowflakeId, snowflakeRef } from '@snowkey/drizzle/mysql-core';
import { bigint, int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';

/**
 * The game's tables (examples/merge's schema) for `mysqlTable`: every key a `snowflakeId` filled from
 * `generator`, every foreign key a `snowflakeRef`, times as `bigint` ms in number mode.
 *
 * @example
 * const t = mysqlGameTables(new Snowflake({ layout: layouts.gameServer, serverId: 1 }));
 * await db.insert(t.players).values({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }).returning();
 */
export function mysqlGameTables(generator: IdGeneratorSource) {
  const millis = (name: string) => bigint(name, { mode: 'number' }).notNull();
  const players = mysqlTable('players', {
    id: snowflakeId(generator).primaryKey(),
    name: varchar({ length: 40 }).notNull().unique(),
    homeServer: int('home_server').notNull(),
    level: int().notNull(),
    createdAt: millis('created_at'),
  });
  const guilds = mysqlTable('guilds', {
    id: snowflakeId(generator).primaryKey(),
    name: varchar({ length: 40 }).notNull().unique(),
    leaderId: snowflakeRef('leader_id').notNull(),
    createdAt: millis('created_at'),
  });
  const guildMembers = mysqlTable('guild_members', {
    id: snowflakeId(generator).primaryKey(),
    guildId: snowflakeRef('guild_id').notNull(),
    playerId: snowflakeRef('player_id').notNull(),
    role: varchar({ length: 16 }).notNull(),
    joinedAt: millis('joined_at'),
  });
  const items = mysqlTable('items', {
    id: snowflakeId(generator).primaryKey(),
    ownerId: snowflakeRef('owner_id').notNull(),
    kind: varchar({ length: 32 }).notNull(),
    qty: int().notNull(),
    createdAt: millis('created_at'),
  });
  const mail = mysqlTable('mail', {
    id: snowflakeId(generator).primaryKey(),
    senderId: snowflakeRef('sender_id').notNull(),
    recipientId: snowflakeRef('recipient_id').notNull(),
    itemId: snowflakeRef('item_id'),
    subject: varchar({ length: 80 }).notNull(),
    sentAt: millis('sent_at'),
  });
  return { players, guilds, guildMembers, items, mail };
}

/** The MySQL game tables of one server. */
export type MySqlGameTables = ReturnType<typeof mysqlGameTables>;
