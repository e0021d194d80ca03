import type { Row } from './fill-ids.js';
import type { InsertTarget } from './insert-query.js';
import { PendingInsert } from './pending-insert.js';
import { boundTransaction } from './transaction.js';

/** Knex's `batchInsert` with ids assigned, in one transaction; resolves to the rows in input order. */
export class SnowkeyBatchInsert<Out> extends PendingInsert<Out> {
  readonly #target: InsertTarget;
  readonly #chunkSize: number;

  /** @internal Built by `sk.batchInsert`. */
  constructor(target: InsertTarget, rows: readonly Row[], chunkSize: number) {
    super(rows);
    this.#target = target;
    this.#chunkSize = chunkSize;
  }

  protected execute(): Promise<readonly Row[]> {
    const { knex, table } = this.#target;
    // Knex runs every chunk in one transaction, so a failing chunk keeps none: its own, or the
    // one the helper is bound to, never a nested one.
    const batch = knex.batchInsert(table, this.filledRows as Row[], this.#chunkSize);
    const trx = boundTransaction(knex, this.transaction);
    if (trx) batch.transacting(trx);
    return batch.then(() => this.filledRows);
  }
}
