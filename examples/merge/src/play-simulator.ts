import { InvalidArgumentError } from '@snowkey/core';
import type { GameWriter } from './game-writer.js';
import { NameDrawer, seededRandom } from './names.js';

/** How much play to simulate on one server. */
export interface PlayOptions {
  /** The server's id: written to `players.home_server`; the writer's generator must use it too. */
  serverId: number;
  /** Players to create (each plays one session: joins or founds a guild, loots, sends mail). */
  players: number;
  /** Concurrent writers, each running sessions against the same writer. Default 4. */
  writers?: number;
  /** Seed of the name and action draws. Default 1. */
  seed?: number;
  /** Names already on the server (a second round of play must not draw them again). */
  takenNames?: { players?: Iterable<string>; guilds?: Iterable<string> };
  /** Ms since 1970 for `created_at` and friends. Default `Date.now`. */
  now?: () => number;
}

/** What a play wrote. */
export interface PlayStats {
  readonly serverId: number;
  readonly rows: { players: number; guilds: number; guild_members: number; items: number; mail: number };
  readonly totalRows: number;
  readonly elapsedMs: number;
}

const ITEM_KINDS = ['sword', 'shield', 'potion', 'scroll', 'gem', 'bow', 'helm', 'ring'];
const SUBJECTS = ['gg', 'trade?', 'raid tonight', 'thanks for the help', 'gift', 'guild invite', 'wts gem'];

/**
 * Simulates play on one game server: `writers` concurrent sessions create players, found and join
 * guilds, loot items in bulk and mail each other (some mail carries an item, which changes hands),
 * always referring to rows that other sessions have already committed.
 *
 * @example
 * const stats = await playShard(writer, { serverId: 1, players: 500, writers: 4 });
 * stats.rows; // { players: 500, guilds: 46, guild_members: 371, items: 1498, mail: 742 }
 */
export async function playShard(writer: GameWriter, options: PlayOptions): Promise<PlayStats> {
  const { serverId, players } = options;
  const writers = options.writers ?? 4;
  if (!Number.isInteger(players) || players < 2) {
    throw new InvalidArgumentError('players', 'an integer >= 2', players);
  }
  if (!Number.isInteger(writers) || writers < 1 || writers > 64) {
    throw new InvalidArgumentError('writers', 'an integer in 1..64', writers);
  }
  const now = options.now ?? Date.now;
  const rng = seededRandom((options.seed ?? 1) * 7919 + serverId);
  const playerNames = new NameDrawer('player', players, rng, options.takenNames?.players);
  const guildNames = new NameDrawer('guild', Math.ceil(players / 10), rng, options.takenNames?.guilds);
  const known: bigint[] = [];
  const guilds: bigint[] = [];
  const rows = { players: 0, guilds: 0, guild_members: 0, items: 0, mail: 0 };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  let next = 0;
  const started = performance.now();

  async function session(): Promise<void> {
    const me = await writer.createPlayer({
      name: playerNames.next(),
      homeServer: serverId,
      level: 1 + Math.floor(rng() * 60),
      createdAt: now(),
    });
    rows.players++;
    if (rng() < 0.1 || guilds.length === 0) {
      const { guildId } = await writer.createGuild({
        name: guildNames.next(),
        leaderId: me,
        createdAt: now(),
      });
      guilds.push(guildId);
      rows.guilds++;
      rows.guild_members++;
    } else if (rng() < 0.75) {
      await writer.joinGuild({
        guildId: pick(guilds),
        playerId: me,
        role: rng() < 0.1 ? 'officer' : 'member',
        joinedAt: now(),
      });
      rows.guild_members++;
    }
    const loot = Array.from({ length: 1 + Math.floor(rng() * 5) }, () => ({
      ownerId: me,
      kind: pick(ITEM_KINDS),
      qty: 1 + Math.floor(rng() * 20),
      createdAt: now(),
    }));
    const bag = await writer.createItems(loot);
    rows.items += bag.length;
    known.push(me);
    const letters = Math.floor(rng() * 4);
    for (let i = 0; i < letters && known.length > 1; i++) {
      let to = pick(known);
      if (to === me) to = known[0] === me ? known[1]! : known[0]!;
      const itemId = bag.length > 0 && rng() < 0.4 ? bag.pop()! : null;
      await writer.sendMail({
        senderId: me,
        recipientId: to,
        itemId,
        subject: pick(SUBJECTS),
        sentAt: now(),
      });
      rows.mail++;
    }
  }

  // On the first failure every writer stops after its current session, so none is still writing
  // when the caller closes the connection.
  let failure: { error: unknown } | undefined;
  async function worker(): Promise<void> {
    while (next < players && !failure) {
      next++;
      try {
        await session();
      } catch (error) {
        failure ??= { error };
      }
    }
  }

  await Promise.all(Array.from({ length: writers }, worker));
  if (failure) throw failure.error;
  const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
  return { serverId, rows, totalRows, elapsedMs: performance.now() - started };
}
