import type { Knex } from 'knex';
import type { Row } from './fill-ids.js';
import type { InsertTarget } from './insert-query.js';

/**
 * Knex's `batchInsert` with ids assigned: the rows are inserted `chunkSize` at a time in one
 * transaction (a new one, or the one given to `.transacting(trx)`), and it resolves to the rows,
 * ids included, in input order.
 *
 * @example
 * const items = await sk.batchInsert('items', thousandsOfRows, 500);
 * items[0].id; // bigint
 */
export class SnowkeyBatchInsert<Out> implements PromiseLike<Out[]> {
  readonly #target: InsertTarget;
  readonly #rows: readonly Row[];
  readonly #chunkSize: number;
  // Mutable, as on Knex's batchInsert: `b.transacting(trx); await b;` must run in trx.
  #trx: Knex.Transaction | undefined;
  #run: Promise<Out[]> | undefined;

  /** @internal Built by `sk.batchInsert`. */
  constructor(target: InsertTarget, rows: readonly Row[], chunkSize: number) {
    this.#target = target;
    this.#rows = rows;
    this.#chunkSize = chunkSize;
  }

  /**
   * The rows to insert, ids already assigned, before anything runs.
   *
   * @example
   * sk.batchInsert('items', rows).rows.map((r) => r.id);
   */
  get rows(): readonly Out[] {
    return this.#rows as unknown as readonly Out[];
  }

  /**
   * Runs every chunk in `trx` instead of a transaction of its own, Knex's `.transacting(trx)`;
   * like it, sets this batch and returns it.
   *
   * @example
   * await knex.transaction((trx) => sk.batchInsert('items', rows, 500).transacting(trx));
   */
  transacting(trx: Knex.Transaction): this {
    this.#trx = trx;
    return this;
  }

  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, the way Knex builders are.
  then<A = Out[], B = never>(
    onfulfilled?: ((rows: Out[]) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#run ??= this.#execute();
    return this.#run.then(onfulfilled, onrejected);
  }

  /** As `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Out[] | B> {
    return this.then(undefined, onrejected);
  }

  async #execute(): Promise<Out[]> {
    const { knex, table } = this.#target;
    if (this.#rows.length === 0) return [];
    const batch = knex.batchInsert(table, this.#rows as Row[], this.#chunkSize);
    // A helper bound to a transaction runs its batches there, not in a nested one.
    const trx = this.#trx ?? (knex.isTransaction ? (knex as Knex.Transaction) : undefined);
    await (trx ? batch.transacting(trx) : batch);
    return this.#rows as unknown as Out[];
  }
}
