import type { Knex } from 'knex';

/**
 * Runs `work` in `trx` when one is given or `knex` already is a transaction, else in a new
 * transaction on `knex` that commits when `work` resolves and rolls back when it throws.
 */
export function runInTransaction<T>(
  knex: Knex,
  trx: Knex.Transaction | undefined,
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  if (trx) return work(trx);
  if (knex.isTransaction) return work(knex as Knex.Transaction);
  return knex.transaction(work);
}
