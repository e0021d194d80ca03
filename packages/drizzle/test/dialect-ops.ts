import type { IdGenerator } from '@snowkey/core';
import { inArray, sql } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { storedIds } from '../src/mysql-core.js';
import type { OpenedDrizzle } from './open-drizzle.js';
import { mysqlSchema, pgSchema, sqliteSchema } from './schema.js';

export interface PlayerRow {
  id?: bigint;
  name: string;
  qty: number;
}
export interface ItemRow {
  id?: bigint;
  serialNo?: bigint;
  giftCode?: bigint | null;
  ownerId?: bigint | null;
  label?: string;
}
export interface ItemIds {
  id: bigint;
  serialNo: bigint;
  giftCode: bigint | null;
}

/**
 * Each write path the README documents, written the way it says for the dialect (RETURNING on
 * PostgreSQL and SQLite, `$returningId()` and `storedIds` on MySQL; SQLite transactions are
 * synchronous), so the tests above it read the same on every dialect.
 */
export interface DialectOps {
  insertPlayers(rows: PlayerRow[]): Promise<bigint[]>;
  insertItems(rows: ItemRow[]): Promise<ItemIds[]>;
  /** A player and its items in one `db.transaction`, the items referring to the player's new id. */
  playerWithItems(name: string, labels: string[]): Promise<{ playerId: bigint; itemIds: bigint[] }>;
  /** Inserts each player in its own statement inside one transaction. */
  playersInTransaction(rows: PlayerRow[]): Promise<bigint[]>;
  /** An upsert on players.name that sets qty; resolves to each row's stored id. */
  upsertQty(rows: PlayerRow[]): Promise<bigint[]>;
  /** An upsert on players.name that changes nothing; resolves to each row's stored id. */
  upsertNothing(rows: PlayerRow[]): Promise<bigint[]>;
  /** Players by name with their items through a relational query (`db.query`), nested rows as Drizzle builds them. */
  playersWithItems(): Promise<unknown>;
}

export function dialectOps(opened: OpenedDrizzle, generator: IdGenerator): DialectOps {
  switch (opened.dialect) {
    case 'postgres': {
      const { players, items } = pgSchema(generator);
      const db = opened.db;
      return {
        insertPlayers: async (rows) => (await db.insert(players).values(rows).returning()).map((r) => r.id),
        insertItems: (rows) =>
          db
            .insert(items)
            .values(rows)
            .returning({ id: items.id, serialNo: items.serialNo, giftCode: items.giftCode }),
        playerWithItems: (name, labels) =>
          db.transaction(async (tx) => {
            const [player] = await tx.insert(players).values({ name, qty: 1 }).returning({ id: players.id });
            const rows = labels.map((label) => ({ label, ownerId: player!.id }));
            const made = await tx.insert(items).values(rows).returning({ id: items.id });
            return { playerId: player!.id, itemIds: made.map((r) => r.id) };
          }),
        playersInTransaction: (rows) =>
          db.transaction(async (tx) => {
            const ids: bigint[] = [];
            for (const row of rows) ids.push((await tx.insert(players).values(row).returning())[0]!.id);
            return ids;
          }),
        upsertQty: async (rows) =>
          (
            await db
              .insert(players)
              .values(rows)
              .onConflictDoUpdate({ target: players.name, set: { qty: sql`excluded.qty` } })
              .returning({ id: players.id })
          ).map((r) => r.id),
        upsertNothing: async (rows) =>
          (
            await db
              .insert(players)
              .values(rows)
              .onConflictDoUpdate({ target: players.name, set: { id: sql`${players.id}` } })
              .returning({ id: players.id })
          ).map((r) => r.id),
        playersWithItems: () =>
          drizzlePg(opened.pool, { schema: pgSchema(generator) }).query.players.findMany({
            with: { items: true },
          }),
      };
    }
    case 'mysql': {
      const { players, items } = mysqlSchema(generator);
      const db = opened.db;
      return {
        insertPlayers: async (rows) =>
          (await db.insert(players).values(rows).$returningId()).map((r) => r.id),
        async insertItems(rows) {
          // $returningId() reports the primary key only; the other columns are read back by it.
          const ids = (await db.insert(items).values(rows).$returningId()).map((r) => r.id);
          const stored = await db
            .select({ id: items.id, serialNo: items.serialNo, giftCode: items.giftCode })
            .from(items)
            .where(inArray(items.id, ids));
          return ids.map((id) => stored.find((r) => r.id === id)!);
        },
        playerWithItems: (name, labels) =>
          db.transaction(async (tx) => {
            const [player] = await tx.insert(players).values({ name, qty: 1 }).$returningId();
            const rows = labels.map((label) => ({ label, ownerId: player!.id }));
            const made = await tx.insert(items).values(rows).$returningId();
            return { playerId: player!.id, itemIds: made.map((r) => r.id) };
          }),
        playersInTransaction: (rows) =>
          db.transaction(async (tx) => {
            const ids: bigint[] = [];
            for (const row of rows) ids.push((await tx.insert(players).values(row).$returningId())[0]!.id);
            return ids;
          }),
        upsertQty: (rows) =>
          db.transaction(async (tx) => {
            await tx
              .insert(players)
              .values(rows)
              .onDuplicateKeyUpdate({ set: { qty: sql`values(${players.qty})` } });
            return storedIds(tx, players, rows, { id: players.id, target: players.name });
          }),
        upsertNothing: (rows) =>
          db.transaction(async (tx) => {
            await tx.insert(players).ignore().values(rows);
            return storedIds(tx, players, rows, { id: players.id, target: [players.name] });
          }),
        playersWithItems: () =>
          drizzleMysql(opened.pool, {
            schema: mysqlSchema(generator),
            mode: 'planetscale',
          }).query.players.findMany({
            with: { items: true },
          }),
      };
    }
    case 'sqlite': {
      const { players, items } = sqliteSchema(generator);
      const db = opened.db;
      return {
        insertPlayers: async (rows) => (await db.insert(players).values(rows).returning()).map((r) => r.id),
        insertItems: async (rows) =>
          db
            .insert(items)
            .values(rows)
            .returning({ id: items.id, serialNo: items.serialNo, giftCode: items.giftCode }),
        // better-sqlite3 transactions are synchronous: the callback runs each query with .all()/.run().
        playerWithItems: async (name, labels) =>
          db.transaction((tx) => {
            const [player] = tx.insert(players).values({ name, qty: 1 }).returning({ id: players.id }).all();
            const rows = labels.map((label) => ({ label, ownerId: player!.id }));
            const made = tx.insert(items).values(rows).returning({ id: items.id }).all();
            return { playerId: player!.id, itemIds: made.map((r) => r.id) };
          }),
        playersInTransaction: async (rows) =>
          db.transaction((tx) => rows.map((row) => tx.insert(players).values(row).returning().get()!.id)),
        upsertQty: async (rows) =>
          db
            .insert(players)
            .values(rows)
            .onConflictDoUpdate({ target: players.name, set: { qty: sql`excluded.qty` } })
            .returning({ id: players.id })
            .all()
            .map((r) => r.id),
        upsertNothing: async (rows) =>
          db
            .insert(players)
            .values(rows)
            .onConflictDoUpdate({ target: players.name, set: { id: sql`${players.id}` } })
            .returning({ id: players.id })
            .all()
            .map((r) => r.id),
        playersWithItems: async () =>
          drizzleSqlite(opened.sqlite, { schema: sqliteSchema(generator) }).query.players.findMany({
            with: { items: true },
          }),
      };
    }
  }
}
