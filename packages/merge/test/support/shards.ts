import { createTestDatabase, type Dialect, type DroppableTestDatabase } from '@snowkey/test-harness';
import { type MergeDatabase, openDatabase } from '../../src/index.js';
import { guildSchema, type Keys, shardRows } from './guild-schema.js';

/** A test database: the harness's raw-SQL oracle and the engine's connection to it. */
export interface TestShard {
  readonly oracle: DroppableTestDatabase;
  readonly db: MergeDatabase;
}

/** Databases made by a test file, dropped together. */
export class Shards {
  readonly #made: TestShard[] = [];
  constructor(readonly dialect: Dialect) {}

  /** A fresh database with the guild schema, filled when `fill` is given. */
  async create(
    label: string,
    keys: Keys = 'given',
    fill?: { base: number; accounts: readonly [string, string][] },
  ): Promise<TestShard> {
    const oracle = await createTestDatabase(this.dialect, label);
    for (const sql of guildSchema(this.dialect, keys)) await oracle.query(sql);
    if (fill) {
      const selfRefs: Record<string, string> = { guild_officers: 'mentor_id', mail: 'reply_to' };
      for (const t of shardRows(fill.base, fill.accounts)) {
        // Self-references point forward too: rows first, their references after.
        const self = t.cols.indexOf(selfRefs[t.table] ?? '');
        for (const v of t.values) {
          const row = v.map((x, i) => (i === self ? null : x));
          await oracle.query(
            `INSERT INTO ${t.table} (${t.cols.join(', ')}) VALUES (${t.cols.map(() => '?').join(', ')})`,
            row,
          );
        }
        if (self < 0) continue;
        for (const v of t.values) {
          if (v[self] !== null)
            await oracle.query(`UPDATE ${t.table} SET ${t.cols[self]} = ? WHERE id = ?`, [v[self], v[0]]);
        }
      }
    }
    const shard = { oracle, db: await openDatabase(oracle.url) };
    this.#made.push(shard);
    return shard;
  }

  async dropAll(): Promise<void> {
    for (const s of this.#made.splice(0)) {
      await s.db.close();
      await s.oracle.drop();
    }
  }
}

/** Every row of every guild table in key order, as one comparable string (the oracle's own SQL). */
export async function dumpOf(
  db: Pick<DroppableTestDatabase, 'query'>,
  extra: string[] = [],
): Promise<string> {
  const parts: unknown[] = [];
  for (const [t, order] of [
    ['accounts', 'id'],
    ['guilds', 'id'],
    ['guild_officers', 'id'],
    ['guild_members', 'guild_id, account_id'],
    ['inventory', 'account_id, slot'],
    ['trades', 'id'],
    ['mail', 'id'],
  ] as const) {
    parts.push(await db.query(`SELECT * FROM ${t} ORDER BY ${order}`));
  }
  for (const sql of extra) parts.push(await db.query(sql));
  return JSON.stringify(parts, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Rows of each foreign key, written out by hand, whose parent is missing (MATCH SIMPLE). */
export async function danglingOf(db: Pick<DroppableTestDatabase, 'query'>): Promise<number> {
  const checks = [
    'SELECT COUNT(*) AS n FROM guilds c LEFT JOIN accounts p ON p.id = c.founder_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM guild_officers c LEFT JOIN guilds p ON p.id = c.guild_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM guild_officers c LEFT JOIN accounts p ON p.id = c.account_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM guild_officers c LEFT JOIN guild_officers p ON p.id = c.mentor_id WHERE c.mentor_id IS NOT NULL AND p.id IS NULL',
    'SELECT COUNT(*) AS n FROM guild_members c LEFT JOIN guilds p ON p.id = c.guild_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM guild_members c LEFT JOIN accounts p ON p.id = c.account_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM inventory c LEFT JOIN accounts p ON p.id = c.account_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM trades c LEFT JOIN inventory p ON p.account_id = c.account_id AND p.slot = c.slot WHERE c.account_id IS NOT NULL AND c.slot IS NOT NULL AND p.account_id IS NULL',
    'SELECT COUNT(*) AS n FROM mail c LEFT JOIN accounts p ON p.id = c.sender_id WHERE p.id IS NULL',
    'SELECT COUNT(*) AS n FROM mail c LEFT JOIN mail p ON p.id = c.reply_to WHERE c.reply_to IS NOT NULL AND p.id IS NULL',
  ];
  let n = 0;
  for (const sql of checks) n += Number((await db.query<{ n: unknown }>(sql))[0]!.n);
  return n;
}

/**
 * The world as relations between values, independent of keys: who founded which guild, who
 * mentors whom, which item a trade sells, which mail answers which. Equal before and after a
 * rekey when every foreign key was rewritten to the right row.
 */
export async function relationsOf(db: Pick<DroppableTestDatabase, 'query'>): Promise<string> {
  const parts = [
    await db.query(
      'SELECT g.name, a.handle FROM guilds g JOIN accounts a ON a.id = g.founder_id ORDER BY g.name',
    ),
    await db.query(
      'SELECT a.handle AS officer, g.name AS guild, m.handle AS mentor FROM guild_officers o JOIN accounts a ON a.id = o.account_id JOIN guilds g ON g.id = o.guild_id LEFT JOIN guild_officers mo ON mo.id = o.mentor_id LEFT JOIN accounts m ON m.id = mo.account_id ORDER BY a.handle',
    ),
    await db.query(
      'SELECT g.name, a.handle, gm.role FROM guild_members gm JOIN guilds g ON g.id = gm.guild_id JOIN accounts a ON a.id = gm.account_id ORDER BY a.handle',
    ),
    await db.query(
      'SELECT t.price, i.item, a.handle FROM trades t LEFT JOIN inventory i ON i.account_id = t.account_id AND i.slot = t.slot LEFT JOIN accounts a ON a.id = i.account_id ORDER BY t.price, a.handle',
    ),
    await db.query(
      'SELECT m.body, a.handle, r.body AS reply_to FROM mail m JOIN accounts a ON a.id = m.sender_id LEFT JOIN mail r ON r.id = m.reply_to ORDER BY m.body',
    ),
  ];
  return JSON.stringify(parts, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}
