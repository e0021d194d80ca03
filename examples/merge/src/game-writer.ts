/** A new player. */
export interface NewPlayer {
  name: string;
  homeServer: number;
  level: number;
  createdAt: number;
}

/** A new guild; its leader becomes its first member in the same transaction. */
export interface NewGuild {
  name: string;
  leaderId: bigint;
  createdAt: number;
}

/** A player joining a guild. */
export interface NewMembership {
  guildId: bigint;
  playerId: bigint;
  role: 'member' | 'officer';
  joinedAt: number;
}

/** A new item in a player's bag. */
export interface NewItem {
  ownerId: bigint;
  kind: string;
  qty: number;
  createdAt: number;
}

/** Mail from one player to another; with `itemId`, the item moves to the recipient. */
export interface NewMail {
  senderId: bigint;
  recipientId: bigint;
  itemId: bigint | null;
  subject: string;
  sentAt: number;
}

/**
 * What the play simulator asks of a game server's data layer. Each example implements it through
 * its adapter (TypeORM entities, the Prisma extension, the Knex helper), so the ids are assigned by
 * the adapter before the INSERT; the simulator only sees the bigint ids it gets back.
 *
 * @example
 * const aria = await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() });
 * const [sword] = await writer.createItems([{ ownerId: aria, kind: 'sword', qty: 1, createdAt: Date.now() }]);
 */
export interface GameWriter {
  createPlayer(player: NewPlayer): Promise<bigint>;
  /** Inserts the guild and the leader's membership (role `leader`) in one transaction. */
  createGuild(guild: NewGuild): Promise<{ guildId: bigint; membershipId: bigint }>;
  joinGuild(membership: NewMembership): Promise<bigint>;
  /** Inserts several items in one statement (the adapter's bulk path); ids in input order. */
  createItems(items: NewItem[]): Promise<bigint[]>;
  /** In one transaction: moves the attached item (if any) to the recipient and inserts the mail. */
  sendMail(mail: NewMail): Promise<bigint>;
  close(): Promise<void>;
}
