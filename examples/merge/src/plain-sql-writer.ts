import { type IdGenerator, parseId } from '@snowkey/core';
import type { Knex } from 'knex';
import { type Dialect, keyValue } from './database.js';
import type { GameWriter, NewGuild, NewItem, NewMail, NewMembership, NewPlayer } from './game-writer.js';

/**
 * A {@link GameWriter} on plain Knex, without any snowkey adapter: keys come from `ids` (any
 * {@link IdGenerator}, e.g. the ticket-server counter) or, with `'database'`, from the column's
 * AUTO_INCREMENT / IDENTITY. The contrasts use it; the examples use their adapters instead.
 *
 * @example
 * const writer = new PlainSqlWriter(db, 'mysql', 'database'); // AUTO_INCREMENT keys
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 1n
 */
export class PlainSqlWriter implements GameWriter {
  readonly #db: Knex;
  readonly #dialect: Dialect;
  readonly #ids: IdGenerator | 'database';

  constructor(db: Knex, dialect: Dialect, ids: IdGenerator | 'database') {
    this.#db = db;
    this.#dialect = dialect;
    this.#ids = ids;
  }

  createPlayer(p: NewPlayer): Promise<bigint> {
    return this.#insert(this.#db, 'players', {
      name: p.name,
      home_server: p.homeServer,
      level: p.level,
      created_at: p.createdAt,
    });
  }

  createGuild(g: NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    return this.#db.transaction(async (trx) => {
      const guildId = await this.#insert(trx, 'guilds', {
        name: g.name,
        leader_id: g.leaderId,
        created_at: g.createdAt,
      });
      const membershipId = await this.#insert(trx, 'guild_members', {
        guild_id: guildId,
        player_id: g.leaderId,
        role: 'leader',
        joined_at: g.createdAt,
      });
      return { guildId, membershipId };
    });
  }

  joinGuild(m: NewMembership): Promise<bigint> {
    return this.#insert(this.#db, 'guild_members', {
      guild_id: m.guildId,
      player_id: m.playerId,
      role: m.role,
      joined_at: m.joinedAt,
    });
  }

  async createItems(items: NewItem[]): Promise<bigint[]> {
    const rows = items.map((i) => ({
      owner_id: i.ownerId,
      kind: i.kind,
      qty: i.qty,
      created_at: i.createdAt,
    }));
    if (this.#ids === 'database') {
      // Database-assigned keys cannot be read back from a multi-row INSERT on every dialect.
      return this.#db.transaction(async (trx) => {
        const out: bigint[] = [];
        for (const row of rows) out.push(await this.#insert(trx, 'items', row));
        return out;
      });
    }
    const ids = this.#ids.nextIds ? this.#ids.nextIds(rows.length) : rows.map(() => this.#nextId());
    await this.#db('items').insert(rows.map((r, i) => ({ id: ids[i]!, ...r })));
    return ids;
  }

  sendMail(m: NewMail): Promise<bigint> {
    return this.#db.transaction(async (trx) => {
      if (m.itemId !== null)
        await trx('items').where('id', keyValue(m.itemId)).update({ owner_id: m.recipientId });
      return this.#insert(trx, 'mail', {
        sender_id: m.senderId,
        recipient_id: m.recipientId,
        item_id: m.itemId,
        subject: m.subject,
        sent_at: m.sentAt,
      });
    });
  }

  async close(): Promise<void> {}

  #nextId(): bigint {
    return (this.#ids as IdGenerator).nextId();
  }

  async #insert(db: Knex | Knex.Transaction, table: string, row: Record<string, unknown>): Promise<bigint> {
    if (this.#ids !== 'database') {
      const id = this.#nextId();
      await db(table).insert({ id, ...row });
      return id;
    }
    if (this.#dialect === 'postgres') {
      const [out] = await db(table).insert(row).returning('id');
      return parseId((out as { id: unknown }).id);
    }
    // mysql2 returns [insertId]; better-sqlite3 returns [lastInsertRowid].
    const [insertId] = (await db(table).insert(row)) as unknown[];
    return parseId(insertId);
  }
}
