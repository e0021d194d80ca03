import type * as Game from '@snowkey/example-merge';
import type { Sequelize, Transaction } from 'sequelize';
import { defineGameModels } from './game-models.js';

/**
 * The game's writes through Sequelize models with `@snowkey/sequelize` attached: `create` and
 * `bulkCreate` return instances whose ids the hooks assigned before the INSERT, on every dialect
 * (MySQL has no RETURNING; it does not need one). On SQLite the writes take turns: Sequelize opens
 * a connection per transaction, and SQLite has one writer at a time.
 *
 * @example
 * attachSnowflakes(sequelize, { generator: new Snowflake({ layout: layouts.gameServer, serverId: 1 }) });
 * const writer = new SequelizeGameWriter(sequelize);
 * await writer.createPlayer({ name: 'Aria', homeServer: 1, level: 1, createdAt: Date.now() }); // 2500114...n
 */
export class SequelizeGameWriter implements Game.GameWriter {
  readonly #sequelize: Sequelize;
  readonly #models: ReturnType<typeof defineGameModels>;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(sequelize: Sequelize) {
    this.#sequelize = sequelize;
    this.#models = defineGameModels(sequelize);
  }

  createPlayer(p: Game.NewPlayer): Promise<bigint> {
    return this.#write(async () => (await this.#models.Player.create({ ...p })).id);
  }

  createGuild(g: Game.NewGuild): Promise<{ guildId: bigint; membershipId: bigint }> {
    return this.#write(() =>
      this.#sequelize.transaction(async (transaction) => {
        const guild = await this.#models.Guild.create({ ...g }, { transaction });
        const membershipId = await this.#join(
          { guildId: guild.id, playerId: g.leaderId, role: 'leader', joinedAt: g.createdAt },
          transaction,
        );
        return { guildId: guild.id, membershipId };
      }),
    );
  }

  joinGuild(m: Game.NewMembership): Promise<bigint> {
    return this.#write(() => this.#join(m));
  }

  createItems(items: Game.NewItem[]): Promise<bigint[]> {
    return this.#write(async () =>
      (await this.#models.Item.bulkCreate(items.map((i) => ({ ...i })))).map((row) => row.id),
    );
  }

  sendMail(m: Game.NewMail): Promise<bigint> {
    return this.#write(() =>
      this.#sequelize.transaction(async (transaction) => {
        if (m.itemId !== null) {
          await this.#models.Item.update(
            { ownerId: m.recipientId },
            { where: { id: m.itemId }, transaction },
          );
        }
        return (await this.#models.Mail.create({ ...m }, { transaction })).id;
      }),
    );
  }

  async close(): Promise<void> {
    await this.#turn.catch(() => undefined);
    await this.#sequelize.close();
  }

  async #join(
    m: Omit<Game.NewMembership, 'role'> & { role: string },
    transaction?: Transaction,
  ): Promise<bigint> {
    return (await this.#models.GuildMember.create({ ...m }, { transaction })).id;
  }

  /** Runs `work` now, or on SQLite after the write before it. */
  #write<T>(work: () => Promise<T>): Promise<T> {
    if (this.#sequelize.getDialect() !== 'sqlite') return work();
    const run = this.#turn.then(work, work);
    this.#turn = run.catch(() => undefined);
    return run;
  }
}
