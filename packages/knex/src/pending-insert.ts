import type { Knex } from 'knex';
import type { Row } from './fill-ids.js';

/**
 * Rows with ids assigned at the call, and a thenable that runs the INSERT once, on the first
 * `await` (MySQL has no RETURNING, but the ids were known first).
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

  /** The rows to insert, ids assigned; after an upsert a merged row resolves to the id it had. */
  get rows(): readonly Out[] {
    return this.filledRows as unknown as readonly Out[];
  }

  /** Runs the INSERT in `trx`, Knex's `.transacting(trx)`; like it, sets this query and returns it. */
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

  /** Runs the INSERT of {@link filledRows} (never empty); may throw instead of rejecting. */
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
