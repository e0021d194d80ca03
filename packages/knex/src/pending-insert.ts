import type { Knex } from 'knex';
import type { Row } from './fill-ids.js';

/**
 * What `sk.insert` and `sk.batchInsert` return have in common: rows whose ids are assigned when
 * the call is made, a `.transacting(trx)` that sets the query it is called on, and a thenable
 * that runs the INSERT once, on the first `await`, and resolves to the rows with their ids (on
 * every dialect: MySQL has no RETURNING, but the ids were known first). No rows, no SQL.
 *
 * @example
 * const pending = sk.insert('players', { name: 'Aria' }); // a PendingInsert
 * pending.rows[0].id; // known before anything runs
 * const [aria] = await pending; // inserted now
 */
export abstract class PendingInsert<Out> implements PromiseLike<Out[]> {
  /** The rows as they will be inserted, ids filled: copies of the caller's, or with `fillInPlace` the caller's own. */
  protected readonly filledRows: readonly Row[];
  // Mutable, as on a Knex builder: `q.transacting(trx); await q;` must run in trx.
  #trx: Knex.Transaction | undefined;
  #run: Promise<Out[]> | undefined;

  protected constructor(filledRows: readonly Row[]) {
    this.filledRows = filledRows;
  }

  /**
   * The rows to insert, ids already assigned (copies: your objects are left alone, unless the
   * helper was built with `fillInPlace`, which writes the ids into them). After an
   * upsert the awaited result can differ: a merged row resolves to the id it already had.
   *
   * @example
   * const q = sk.insert('players', { name: 'Aria' });
   * q.rows[0].id; // known before the INSERT runs
   */
  get rows(): readonly Out[] {
    return this.filledRows as unknown as readonly Out[];
  }

  /**
   * Runs the INSERT in `trx`, Knex's `.transacting(trx)`; like it, sets this query and returns it.
   *
   * @example
   * await db.transaction(async (trx) => {
   *   await sk.insert('players', rows).transacting(trx);
   *   await sk.batchInsert('items', many, 500).transacting(trx);
   * });
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
    this.#run ??= this.#start();
    return this.#run.then(onfulfilled, onrejected);
  }

  /** As `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Out[] | B> {
    return this.then(undefined, onrejected);
  }

  /** The transaction given to `.transacting`, if any. */
  protected get transaction(): Knex.Transaction | undefined {
    return this.#trx;
  }

  /**
   * Runs the INSERT of {@link filledRows} (never empty); resolves to the rows as stored. May throw
   * instead of rejecting: the caller turns that into a rejection.
   */
  protected abstract execute(): Promise<readonly Row[]>;

  // Not async: the INSERT's own promise is the one awaited, with no extra layer per call.
  #start(): Promise<Out[]> {
    if (this.filledRows.length === 0) return Promise.resolve([]);
    try {
      return this.execute() as Promise<unknown> as Promise<Out[]>;
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
