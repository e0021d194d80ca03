import type { IdGenerator } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import { relations } from 'drizzle-orm';
import { int, mysqlTable, varchar as myVarchar } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, pgTable, varchar as pgVarchar } from 'drizzle-orm/pg-core';
import { integer as sqliteInteger, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import * as my from '../src/mysql-core.js';
import * as pgc from '../src/pg-core.js';
import type { IdGeneratorSource } from '../src/snowflake-id-type.js';
import * as lite from '../src/sqlite-core.js';

/**
 * The tables the Drizzle tests write to, the same SQL on every dialect: players (one snowflake
 * key), items (a key, a second NOT NULL snowflake column, a nullable one, and a reference).
 */
export const DDL = [
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL)',
  'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, serial_no BIGINT NOT NULL, gift_code BIGINT, owner_id BIGINT REFERENCES players (id), label VARCHAR(100))',
] as const;

/** Creates the tables in `db`. */
export async function createTables(db: TestDatabase): Promise<void> {
  for (const sql of DDL) await db.query(sql);
}

/** Empties the tables between tests. */
export async function clearTables(db: TestDatabase): Promise<void> {
  for (const table of ['items', 'players']) await db.query(`DELETE FROM ${table}`);
}

export function pgSchema(generator: IdGeneratorSource) {
  const players = pgTable('players', {
    id: pgc.snowflakeId(generator).primaryKey(),
    name: pgVarchar({ length: 100 }).notNull().unique(),
    qty: pgInteger().notNull(),
  });
  const items = pgTable('items', {
    id: pgc.snowflakeId('id', generator).primaryKey(),
    serialNo: pgc.snowflakeId('serial_no', generator).notNull(),
    giftCode: pgc.snowflakeId('gift_code', generator),
    ownerId: pgc.snowflakeRef('owner_id').references(() => players.id),
    label: pgVarchar({ length: 100 }),
  });
  const playerItems = relations(players, ({ many }) => ({ items: many(items) }));
  const itemOwner = relations(items, ({ one }) => ({
    owner: one(players, { fields: [items.ownerId], references: [players.id] }),
  }));
  return { players, items, playerItems, itemOwner };
}

export function mysqlSchema(generator: IdGeneratorSource) {
  const players = mysqlTable('players', {
    id: my.snowflakeId(generator).primaryKey(),
    name: myVarchar({ length: 100 }).notNull().unique(),
    qty: int().notNull(),
  });
  const items = mysqlTable('items', {
    id: my.snowflakeId('id', generator).primaryKey(),
    serialNo: my.snowflakeId('serial_no', generator).notNull(),
    giftCode: my.snowflakeId('gift_code', generator),
    ownerId: my.snowflakeRef('owner_id').references(() => players.id),
    label: myVarchar({ length: 100 }),
  });
  const playerItems = relations(players, ({ many }) => ({ items: many(items) }));
  const itemOwner = relations(items, ({ one }) => ({
    owner: one(players, { fields: [items.ownerId], references: [players.id] }),
  }));
  return { players, items, playerItems, itemOwner };
}

export function sqliteSchema(generator: IdGeneratorSource) {
  const players = sqliteTable('players', {
    id: lite.snowflakeId(generator).primaryKey(),
    name: text().notNull().unique(),
    qty: sqliteInteger().notNull(),
  });
  const items = sqliteTable('items', {
    id: lite.snowflakeId('id', generator).primaryKey(),
    serialNo: lite.snowflakeId('serial_no', generator).notNull(),
    giftCode: lite.snowflakeId('gift_code', generator),
    ownerId: lite.snowflakeRef('owner_id').references(() => players.id),
    label: text(),
  });
  const playerItems = relations(players, ({ many }) => ({ items: many(items) }));
  const itemOwner = relations(items, ({ one }) => ({
    owner: one(players, { fields: [items.ownerId], references: [players.id] }),
  }));
  return { players, items, playerItems, itemOwner };
}

/** A generator that hands out the given ids in order, for ids at the edges of BIGINT. */
export function fixedIds(...ids: bigint[]): IdGenerator {
  const queue = [...ids];
  return {
    nextId(): bigint {
      const id = queue.shift();
      if (id === undefined) throw new Error('fixedIds: out of ids');
      return id;
    },
  };
}
