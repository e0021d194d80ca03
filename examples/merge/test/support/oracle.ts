import { decode, layouts } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';

/**
 * The tests' own SQL over a game database, independent of the example code: counts, foreign
 * keys, duplicates, a full dump. BIGINT values arrive as strings from the harness.
 */
/** What the oracle needs of a database: raw SQL through a plain driver. */
export type SqlReader = Pick<TestDatabase, 'query'>;

export const GAME_TABLE_NAMES = ['players', 'guilds', 'guild_members', 'items', 'mail'] as const;

export async function countsOf(db: SqlReader): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of GAME_TABLE_NAMES) {
    const [row] = await db.query<{ n: string | number }>(`SELECT COUNT(*) AS n FROM ${t}`);
    out[t] = Number(row!.n);
  }
  return out;
}

/** Each foreign key written out by hand: rows whose reference has no parent. */
const DANGLING = {
  'guilds.leader_id':
    'SELECT COUNT(*) AS n FROM guilds c LEFT JOIN players p ON p.id = c.leader_id WHERE p.id IS NULL',
  'guild_members.guild_id':
    'SELECT COUNT(*) AS n FROM guild_members c LEFT JOIN guilds p ON p.id = c.guild_id WHERE p.id IS NULL',
  'guild_members.player_id':
    'SELECT COUNT(*) AS n FROM guild_members c LEFT JOIN players p ON p.id = c.player_id WHERE p.id IS NULL',
  'items.owner_id':
    'SELECT COUNT(*) AS n FROM items c LEFT JOIN players p ON p.id = c.owner_id WHERE p.id IS NULL',
  'mail.sender_id':
    'SELECT COUNT(*) AS n FROM mail c LEFT JOIN players p ON p.id = c.sender_id WHERE p.id IS NULL',
  'mail.recipient_id':
    'SELECT COUNT(*) AS n FROM mail c LEFT JOIN players p ON p.id = c.recipient_id WHERE p.id IS NULL',
  'mail.item_id':
    'SELECT COUNT(*) AS n FROM mail c LEFT JOIN items p ON p.id = c.item_id WHERE c.item_id IS NOT NULL AND p.id IS NULL',
};

export async function danglingOf(db: SqlReader): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [fk, sql] of Object.entries(DANGLING)) {
    const [row] = await db.query<{ n: string | number }>(sql);
    out[fk] = Number(row!.n);
  }
  return out;
}

export const NO_DANGLING = Object.fromEntries(Object.keys(DANGLING).map((k) => [k, 0]));

/** Names held by more than one player or guild, and ids held by more than one row. */
export async function duplicatesOf(db: SqlReader): Promise<number> {
  let n = 0;
  for (const sql of [
    'SELECT name FROM players GROUP BY name HAVING COUNT(*) > 1',
    'SELECT name FROM guilds GROUP BY name HAVING COUNT(*) > 1',
    ...GAME_TABLE_NAMES.map((t) => `SELECT id FROM ${t} GROUP BY id HAVING COUNT(*) > 1`),
  ]) {
    n += (await db.query(sql)).length;
  }
  return n;
}

export async function idsOf(db: SqlReader, table: string): Promise<string[]> {
  return (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => String(r.id));
}

/** Every row of every game table and the rename list, in key order, as one comparable value. */
export async function dumpOf(db: SqlReader): Promise<string> {
  const parts: unknown[] = [];
  for (const t of GAME_TABLE_NAMES) parts.push(await db.query(`SELECT * FROM ${t} ORDER BY id`));
  parts.push(
    await db.query(
      'SELECT table_name, row_key, column_name, source_label, old_value, new_value FROM snowkey_merge_renames ORDER BY table_name, row_key',
    ),
  );
  return JSON.stringify(parts, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Ids of `table` that do not decode (layouts.gameServer) to `serverId`. */
export async function foreignBornOf(db: SqlReader, table: string, serverId: number): Promise<number> {
  const ids = await idsOf(db, table);
  return ids.filter((id) => decode(BigInt(id), { layout: layouts.gameServer }).serverId !== serverId).length;
}

/**
 * A SQLite file read through better-sqlite3 itself (safe integers, read-only), for databases the
 * examples' CLIs created outside the harness. BIGINT values come back as strings, as from the harness.
 */
export function sqliteFileReader(filename: string): SqlReader & { close(): void } {
  const db = new Database(filename, { readonly: true });
  db.defaultSafeIntegers(true);
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      const rows = db.prepare(sql).all(...params) as Record<string, unknown>[];
      return rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
      ) as T[];
    },
    close: () => db.close(),
  };
}
