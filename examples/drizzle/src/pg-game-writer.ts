import type * as Game from '@snowkey/example-merge';
import { eq } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgGameTables } from './pg-game-tables.js';

/**
 * The game's writes through Drizzle on PostgreSQL: rows go in without an id, `$defaultFn` fills
 * it before the INSERT, and `.returning()` hands it back as a bigint.
 *
 * @example
 * const t = pgGameTables(new Snowflake({ layout: layouts.gameServer, serverId: 1 }));
 * const writer = new PgGameWriter(drizzle(pool), t, () => pool.end());
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class PgGameWriter implements Game.GameWriter {
  readonly #db: NodePgDatabase;
  readonly #t: PgGameTables;
  readonly #close: () => Promise<void>;

  constructor(db: NodePgDatabase, tables: PgGameTables, close: () => Promise<void>) {
    this.#db = db;
    this.#t = tables;
    this.#close = close;
  }

  async createPlayer(p: Game.NewPlayer): Promise<bigint> {
    const { players } = this.#t;
    const [row] = await this.#db.insert(players).values(p).returning({ id: players.id });
    return row!.id;
  }

  createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    const { guilds, guildMembers } = this.#t;
    return this.#db.transaction(async (tx) => {
      const [guild] = await tx.insert(guilds).values(g).returning({ id: guilds.id });
      const [member] = await tx
        .insert(guildMembers)
        .values({ guildId: guild!.id, playerId: g.leaderId, role: 'leader', joinedAt: g.createdAt })
        .returning({ id: guildMembers.id });
      return { guildId: guild!.id, membershipId: member!.id };
    });
  }

  async joinGuild(m: Game.NewMembership): Promise<bigint> {
    const { guildMembers } = this.#t;
    const [row] = await this.#db.insert(guildMembers).values(m).returning({ id: guildMembers.id });
    return row!.id;
  }

  async createItems(items: Game.NewItem[]): Promise<bigint[]> {
    const t = this.#t.items;
    return (await this.#db.insert(t).values(items).returning({ id: t.id })).map((r) => r.id);
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    const { items, mail } = this.#t;
    return this.#db.transaction(async (tx) => {
      if (m.itemId !== null) {
        await tx.update(items).set({ ownerId: m.recipientId }).where(eq(items.id, m.itemId));
      }
      const [row] = await tx.insert(mail).values(m).returning({ id: mail.id });
      return row!.id;
    });
  }

  close(): Promise<void> {
    return this.#close();
  }
}
