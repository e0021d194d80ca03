import type * as Game from '@snowkey/example-merge';
import type { SnowkeyPlugin } from '@snowkey/kysely';
import type { ColumnType, Kysely } from 'kysely';

/** A snowflake key: read as bigint, optional on insert (the plugin fills it), never updated. */
type Key = ColumnType<bigint, bigint | undefined, never>;

/**
 * The game's tables as a Kysely schema.
 *
 * @example
 * const db = new Kysely<GameDatabase>({ dialect, plugins: [snowkeyPlugin({ generator, tables: GAME_ID_COLUMNS })] });
 */
export interface GameDatabase {
  players: { id: Key; name: string; home_server: number; level: number; created_at: number };
  guilds: { id: Key; name: string; leader_id: bigint; created_at: number };
  guild_members: { id: Key; guild_id: bigint; player_id: bigint; role: string; joined_at: number };
  items: { id: Key; owner_id: bigint; kind: string; qty: number; created_at: number };
  mail: {
    id: Key;
    sender_id: bigint;
    recipient_id: bigint;
    item_id: bigint | null;
    subject: string;
    sent_at: number;
  };
}

/**
 * The snowflake column of every game table, told to the plugin once.
 *
 * @example
 * const sk = snowkeyPlugin({ generator, tables: GAME_ID_COLUMNS });
 */
export const GAME_ID_COLUMNS = {
  players: 'id',
  guilds: 'id',
  guild_members: 'id',
  items: 'id',
  mail: 'id',
} as const;

type GameKysely = Pick<Kysely<GameDatabase>, 'insertInto' | 'updateTable'>;

/**
 * The game's writes through `@snowkey/kysely`: plain `insertInto(...).values(...)` queries whose
 * rows get their ids from `sk.withIds` before the INSERT, so the ids are known on every dialect
 * (MySQL has no RETURNING); the plugin keeps them and would fill any row that has none.
 *
 * @example
 * const writer = new KyselyGameWriter(db, sk);
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class KyselyGameWriter implements Game.GameWriter {
  readonly #db: Kysely<GameDatabase>;
  readonly #sk: SnowkeyPlugin<typeof GAME_ID_COLUMNS>;

  constructor(db: Kysely<GameDatabase>, sk: SnowkeyPlugin<typeof GAME_ID_COLUMNS>) {
    this.#db = db;
    this.#sk = sk;
  }

  async createPlayer(p: Game.NewPlayer): Promise<bigint> {
    const [row] = this.#sk.withIds('players', [
      { name: p.name, home_server: p.homeServer, level: p.level, created_at: p.createdAt },
    ]);
    await this.#db.insertInto('players').values(row!).execute();
    return row!.id;
  }

  createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    return this.#db.transaction().execute(async (trx) => {
      const [guild] = this.#sk.withIds('guilds', [
        { name: g.name, leader_id: g.leaderId, created_at: g.createdAt },
      ]);
      await trx.insertInto('guilds').values(guild!).execute();
      const membershipId = await this.#join(trx, {
        guildId: guild!.id,
        playerId: g.leaderId,
        role: 'leader',
        joinedAt: g.createdAt,
      });
      return { guildId: guild!.id, membershipId };
    });
  }

  joinGuild(m: Game.NewMembership): Promise<bigint> {
    return this.#join(this.#db, m);
  }

  async createItems(items: Game.NewItem[]): Promise<bigint[]> {
    const rows = this.#sk.withIds(
      'items',
      items.map((i) => ({ owner_id: i.ownerId, kind: i.kind, qty: i.qty, created_at: i.createdAt })),
    );
    await this.#db.insertInto('items').values(rows).execute();
    return rows.map((r) => r.id);
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    return this.#db.transaction().execute(async (trx) => {
      if (m.itemId !== null) {
        await trx.updateTable('items').set({ owner_id: m.recipientId }).where('id', '=', m.itemId).execute();
      }
      const [mail] = this.#sk.withIds('mail', [
        {
          sender_id: m.senderId,
          recipient_id: m.recipientId,
          item_id: m.itemId,
          subject: m.subject,
          sent_at: m.sentAt,
        },
      ]);
      await trx.insertInto('mail').values(mail!).execute();
      return mail!.id;
    });
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }

  async #join(db: GameKysely, m: Omit<Game.NewMembership, 'role'> & { role: string }): Promise<bigint> {
    const [row] = this.#sk.withIds('guild_members', [
      { guild_id: m.guildId, player_id: m.playerId, role: m.role, joined_at: m.joinedAt },
    ]);
    await db.insertInto('guild_members').values(row!).execute();
    return row!.id;
  }
}
