import type * as Game from '@snowkey/example-merge';
import type { SnowkeyKnex } from '@snowkey/knex';

/**
 * The snowflake column of every game table, told to the helper once.
 *
 * @example
 * const sk = snowkeyKnex(db, { generator, tables: GAME_ID_COLUMNS });
 */
export const GAME_ID_COLUMNS = {
  players: 'id',
  guilds: 'id',
  guild_members: 'id',
  items: 'id',
  mail: 'id',
} as const;

type GameKnex = SnowkeyKnex<typeof GAME_ID_COLUMNS>;

/**
 * The game's writes through `@snowkey/knex`: rows go in without an id and come back with the
 * bigint the helper assigned before the INSERT, on every dialect (MySQL has no RETURNING; it
 * does not need one).
 *
 * @example
 * const sk = snowkeyKnex(db, { generator: new Snowflake({ layout: layouts.gameServer, serverId: 1 }), tables: GAME_ID_COLUMNS });
 * const writer = new KnexGameWriter(sk);
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class KnexGameWriter implements Game.GameWriter {
  readonly #sk: GameKnex;

  constructor(sk: GameKnex) {
    this.#sk = sk;
  }

  async createPlayer(p: Game.NewPlayer): Promise<bigint> {
    const [row] = await this.#sk.insert('players', {
      name: p.name,
      home_server: p.homeServer,
      level: p.level,
      created_at: p.createdAt,
    });
    return row!.id;
  }

  createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    return this.#sk.transaction(async (tx) => {
      const [guild] = await tx.insert('guilds', {
        name: g.name,
        leader_id: g.leaderId,
        created_at: g.createdAt,
      });
      const [member] = await tx.insert('guild_members', {
        guild_id: guild!.id,
        player_id: g.leaderId,
        role: 'leader',
        joined_at: g.createdAt,
      });
      return { guildId: guild!.id, membershipId: member!.id };
    });
  }

  async joinGuild(m: Game.NewMembership): Promise<bigint> {
    const [row] = await this.#sk.insert('guild_members', {
      guild_id: m.guildId,
      player_id: m.playerId,
      role: m.role,
      joined_at: m.joinedAt,
    });
    return row!.id;
  }

  async createItems(items: Game.NewItem[]): Promise<bigint[]> {
    const rows = await this.#sk.insert(
      'items',
      items.map((i) => ({ owner_id: i.ownerId, kind: i.kind, qty: i.qty, created_at: i.createdAt })),
    );
    return rows.map((r) => r.id);
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    return this.#sk.transaction(async (tx) => {
      if (m.itemId !== null) {
        await tx.knex('items').where({ id: m.itemId }).update({ owner_id: m.recipientId });
      }
      const [mail] = await tx.insert('mail', {
        sender_id: m.senderId,
        recipient_id: m.recipientId,
        item_id: m.itemId,
        subject: m.subject,
        sent_at: m.sentAt,
      });
      return mail!.id;
    });
  }

  async close(): Promise<void> {
    await this.#sk.knex.destroy();
  }
}
