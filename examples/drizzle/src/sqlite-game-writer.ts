import type * as Game from '@snowkey/example-merge';
import { eq } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { SQLiteGameTables } from './sqlite-game-tables.js';

/**
 * The game's writes through Drizzle on SQLite: rows go in without an id, `$defaultFn` fills it
 * before the INSERT, and `.returning()` hands it back as a bigint. better-sqlite3 transactions are
 * synchronous, so the two that the game needs run their queries with `.get()` and `.run()`.
 *
 * @example
 * const t = sqliteGameTables(new Snowflake({ layout: layouts.gameServer, serverId: 1 }));
 * const writer = new SQLiteGameWriter(drizzle(sqlite), t, async () => sqlite.close());
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class SQLiteGameWriter implements Game.GameWriter {
  readonly #db: BetterSQLite3Database;
  readonly #t: SQLiteGameTables;
  readonly #close: () => Promise<void>;

  constructor(db: BetterSQLite3Database, tables: SQLiteGameTables, close: () => Promise<void>) {
    this.#db = db;
    this.#t = tables;
    this.#close = close;
  }

  async createPlayer(p: Game.NewPlayer): Promise<bigint> {
    const { players } = this.#t;
    return this.#db.insert(players).values(p).returning({ id: players.id }).get()!.id;
  }

  async createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    const { guilds, guildMembers } = this.#t;
    return this.#db.transaction((tx) => {
      const guild = tx.insert(guilds).values(g).returning({ id: guilds.id }).get()!;
      const member = tx
        .insert(guildMembers)
        .values({ guildId: guild.id, playerId: g.leaderId, role: 'leader', joinedAt: g.createdAt })
        .returning({ id: guildMembers.id })
        .get()!;
      return { guildId: guild.id, membershipId: member.id };
    });
  }

  async joinGuild(m: Game.NewMembership): Promise<bigint> {
    const { guildMembers } = this.#t;
    return this.#db.insert(guildMembers).values(m).returning({ id: guildMembers.id }).get()!.id;
  }

  async createItems(items: Game.NewItem[]): Promise<bigint[]> {
    const t = this.#t.items;
    return this.#db
      .insert(t)
      .values(items)
      .returning({ id: t.id })
      .all()
      .map((r) => r.id);
  }

  async sendMail(m: Game.NewMail): Promise<bigint> {
    const { items, mail } = this.#t;
    return this.#db.transaction((tx) => {
      if (m.itemId !== null) {
        tx.update(items).set({ ownerId: m.recipientId }).where(eq(items.id, m.itemId)).run();
      }
      return tx.insert(mail).values(m).returning({ id: mail.id }).get()!.id;
    });
  }

  close(): Promise<void> {
    return this.#close();
  }
}
