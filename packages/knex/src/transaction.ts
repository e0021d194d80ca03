import type { Knex } from 'knex';

/** The transaction a query runs in: `trx` when one is given, `knex` when it is one, else none. */
export function boundTransaction(
  knex: Knex,
  trx: Knex.Transaction | undefined,
): Knex.Transaction | undefined {
  return trx ?? (knex.isTransaction ? (knex as Knex.Transaction) : undefined);
}

/**
 * Runs `work` in the transaction the query is bound to ({@link boundTransaction}), or else in a new
 * transaction on `knex` that commits when `work` resolves and rolls back when it throws.
 */
export function runInTransaction<T>(
  knex: Knex,
  trx: Knex.Transaction | undefined,
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  const bound = boundTransaction(knex, trx);
  return bound ? work(bound) : knex.transaction(work);
}
