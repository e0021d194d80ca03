import type { IdGenerator } from '@snowkey/core';
import type * as Game from '@snowkey/example-merge';
import type { GameClient } from './game-client.js';

/**
 * The game's writes through a Prisma client extended with `@snowkey/prisma`: `create`, a nested
 * create (a guild with its leader's membership), `createManyAndReturn`, and an interactive
 * `$transaction`. The extension fills every id before the INSERT; nothing here names one, except
 * on MySQL's `createMany`, which returns only a count: there the ids are taken from the same
 * generator up front (the extension keeps ids the caller set).
 *
 * @example
 * const writer = new PrismaGameWriter(prisma, generator, 'postgres');
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class PrismaGameWriter implements Game.GameWriter {
  readonly #prisma: GameClient;
  readonly #generator: IdGenerator;
  readonly #dialect: Game.Dialect;

  constructor(prisma: GameClient, generator: IdGenerator, dialect: Game.Dialect) {
    this.#prisma = prisma;
    this.#generator = generator;
    this.#dialect = dialect;
  }

  async createPlayer(p: Game.NewPlayer): Promise<bigint> {
    const player = await this.#prisma.player.create({
      data: { name: p.name, homeServer: p.homeServer, level: p.level, createdAt: BigInt(p.createdAt) },
      select: { id: true },
    });
    return player.id;
  }

  async createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    const at = BigInt(g.createdAt);
    // A nested write: Prisma runs both INSERTs in one transaction; the extension filled both ids.
    const guild = await this.#prisma.guild.create({
      data: {
        name: g.name,
        leaderId: g.leaderId,
        createdAt: at,
        members: { create: { playerId: g.leaderId, role: 'leader', joinedAt: at } },
      },
      select: { id: true, members: { select: { id: true } } },
    });
    return { guildId: guild.id, membershipId: guild.members[0]!.id };
  }

  async joinGuild(m: Game.NewMembership): Promise<bigint> {
    const member = await this.#prisma.guildMember.create({
      data: { guildId: m.guildId, playerId: m.playerId, role: m.role, joinedAt: BigInt(m.joinedAt) },
      select: { id: true },
    });
    return member.id;
  }

  async createItems(items: Game.NewItem[]): Promise<bigint[]> {
    const data = items.map((i) => ({
      ownerId: i.ownerId,
      kind: i.kind,
      qty: i.qty,
      createdAt: BigInt(i.createdAt),
    }));
    const item = this.#prisma.item;
    if (this.#dialect !== 'mysql' && item.createManyAndReturn) {
      return (await item.createManyAndReturn({ data, select: { id: true } })).map((r) => r.id);
    }
    const ids = this.#generator.nextIds?.(data.length) ?? data.map(() => this.#generator.nextId());
    await item.createMany({ data: data.map((d, i) => ({ id: ids[i]!, ...d })) });
    return ids;
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    return this.#prisma.$transaction(async (tx) => {
      if (m.itemId !== null) {
        await tx.item.update({
          where: { id: m.itemId },
          data: { ownerId: m.recipientId },
          select: { id: true },
        });
      }
      const mail = await tx.mail.create({
        data: {
          senderId: m.senderId,
          recipientId: m.recipientId,
          itemId: m.itemId,
          subject: m.subject,
          sentAt: BigInt(m.sentAt),
        },
        select: { id: true },
      });
      return mail.id;
    });
  }

  close(): Promise<void> {
    return this.#prisma.$disconnect();
  }
}
