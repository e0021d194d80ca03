import type * as Game from '@snowkey/example-merge';
import type { DataSource, EntityManager } from 'typeorm';
import { Guild, GuildMember, Item, Mail, Player } from './game-entities.js';

/**
 * The game's writes through TypeORM with `@snowkey/typeorm` attached: `save`, cascades, bulk
 * `insert` and transactions, each entity getting its id from the subscriber before the INSERT.
 *
 * On SQLite the writes are queued: TypeORM runs every query runner over the one connection there,
 * so two transactions open at once would nest.
 *
 * @example
 * const writer = new TypeormGameWriter(dataSource);
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class TypeormGameWriter implements Game.GameWriter {
  readonly #ds: DataSource;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #serial: boolean;

  constructor(dataSource: DataSource) {
    this.#ds = dataSource;
    this.#serial = dataSource.options.type === 'better-sqlite3';
  }

  createPlayer(p: Game.NewPlayer): Promise<bigint> {
    return this.#run(async (em) => (await em.save(em.create(Player, p))).id);
  }

  createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    return this.#transaction(async (em) => {
      const guild = em.create(Guild, {
        name: g.name,
        leaderId: g.leaderId,
        createdAt: g.createdAt,
        members: [{ playerId: g.leaderId, role: 'leader', joinedAt: g.createdAt }],
      });
      // The cascade inserts the leader's membership; the subscriber fills both ids first, so the
      // membership's guild_id is the guild's new id.
      const saved = await em.save(guild);
      return { guildId: saved.id, membershipId: saved.members![0]!.id };
    });
  }

  joinGuild(m: Game.NewMembership): Promise<bigint> {
    return this.#run(async (em) => (await em.save(em.create(GuildMember, m))).id);
  }

  createItems(items: Game.NewItem[]): Promise<bigint[]> {
    return this.#run(async (em) => {
      const rows = items.map((i) => em.create(Item, i));
      // One multi-row INSERT; the ids are filled on the objects passed in.
      await em.insert(Item, rows);
      return rows.map((r) => r.id);
    });
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    return this.#transaction(async (em) => {
      if (m.itemId !== null) await em.update(Item, { id: m.itemId }, { ownerId: m.recipientId });
      return (await em.save(em.create(Mail, m))).id;
    });
  }

  async close(): Promise<void> {
    await this.#queue.catch(() => {});
    await this.#ds.destroy();
  }

  #run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.#serialize(() => work(this.#ds.manager));
  }

  #transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.#serialize(() => this.#ds.transaction(work));
  }

  #serialize<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#serial) return work();
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => {});
    return next;
  }
}
