/**
 * The part of the generated Prisma client (prisma/game.prisma) the example uses, declared here so
 * the repository typechecks before `prisma generate` has run. In an application, import
 * `PrismaClient` from your generated output instead: these are the same calls.
 */
type Id = { id: bigint };
type Select<T> = { select: T };

export interface GameDelegates {
  player: {
    create(
      args: { data: { name: string; homeServer: number; level: number; createdAt: bigint } } & Select<{
        id: true;
      }>,
    ): Promise<Id>;
  };
  guild: {
    create(
      args: {
        data: {
          name: string;
          leaderId: bigint;
          createdAt: bigint;
          members: { create: { playerId: bigint; role: string; joinedAt: bigint } };
        };
      } & Select<{ id: true; members: { select: { id: true } } }>,
    ): Promise<Id & { members: Id[] }>;
  };
  guildMember: {
    create(
      args: { data: { guildId: bigint; playerId: bigint; role: string; joinedAt: bigint } } & Select<{
        id: true;
      }>,
    ): Promise<Id>;
  };
  item: {
    /** PostgreSQL and SQLite only: Prisma has no createManyAndReturn on MySQL. */
    createManyAndReturn?(args: { data: NewItemData[] } & Select<{ id: true }>): Promise<Id[]>;
    createMany(args: { data: (NewItemData & { id?: bigint })[] }): Promise<{ count: number }>;
    update(args: { where: { id: bigint }; data: { ownerId: bigint } } & Select<{ id: true }>): Promise<Id>;
  };
  mail: {
    create(
      args: {
        data: {
          senderId: bigint;
          recipientId: bigint;
          itemId: bigint | null;
          subject: string;
          sentAt: bigint;
        };
      } & Select<{ id: true }>,
    ): Promise<Id>;
  };
}

/** An item row as `createMany` takes it. */
export interface NewItemData {
  ownerId: bigint;
  kind: string;
  qty: number;
  createdAt: bigint;
}

/** The extended client: the delegates plus interactive transactions. */
export interface GameClient extends GameDelegates {
  $transaction<T>(work: (tx: GameDelegates) => Promise<T>): Promise<T>;
  $disconnect(): Promise<void>;
}
