import type * as Game from '@snowkey/example-merge';
import { eq } from 'drizzle-orm';
import type { MySql2Database } from 'drizzle-orm/mysql2';
import type { MySqlGameTables } from './mysql-game-tables.js';

/**
 * The game's writes through Drizzle on MySQL and MariaDB: rows go in without an id, `$defaultFn`
 * fills it before the INSERT, and `$returningId()` hands it back as a bigint (MySQL has no
 * RETURNING; the id was known before the INSERT).
 *
 * @example
 * const t = mysqlGameTables(new Snowflake({ layout: layouts.gameServer, serverId: 1 }));
 * const writer = new MySqlGameWriter(drizzle(pool), t, () => pool.end());
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class MySqlGameWriter implements Game.GameWriter {
  readonly #db: MySql2Database;
  readonly #t: MySqlGameTables;
  readonly #close: () => Promise<void>;

  constructor(db: MySql2Database, tables: MySqlGameTables, close: () => Promise<void>) {
    this.#db = db;
    this.#t = tables;
    this.#close = close;
  }

  async createPlayer(p: Game.NewPlayer): Promise<bigint> {
    const { players } = this.#t;
    const [row] = await this.#db.insert(players).values(p).$returningId();
    return row!.id;
  }

  createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    const { guilds, guildMembers } = this.#t;
    return this.#db.transaction(async (tx) => {
      const [guild] = await tx.insert(guilds).values(g).$returningId();
      const [member] = await tx
        .insert(guildMembers)
        .values({ guildId: guild!.id, playerId: g.leaderId, role: 'leader', joinedAt: g.createdAt })
        .$returningId();
      return { guildId: guild!.id, membershipId: member!.id };
    });
  }

  async joinGuild(m: Game.NewMembership): Promise<bigint> {
    const { guildMembers } = this.#t;
    const [row] = await this.#db.insert(guildMembers).values(m).$returningId();
    return row!.id;
  }

  async createItems(items: Game.NewItem[]): Promise<bigint[]> {
    const t = this.#t.items;
    return (await this.#db.insert(t).values(items).$returningId()).map((r) => r.id);
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    const { items, mail } = this.#t;
    return this.#db.transaction(async (tx) => {
      if (m.itemId !== null) {
        await tx.update(items).set({ ownerId: m.recipientId }).where(eq(items.id, m.itemId));
      }
      const [row] = await tx.insert(mail).values(m).$returningId();
      return row!.id;
    });
  }

  close(): Promise<void> {
    return this.#close();
  }
}
