import type { SqlParam } from '@snowkey/core';
import { InvalidArgumentError, type SqlClient } from '@snowkey/core';
import { toPostgresPlaceholders } from '@snowkey/core/adapter';
import { CompiledQuery, type Kysely } from 'kysely';
import { kyselyDialect } from './dialect.js';

/**
 * Core's `SqlClient` over your Kysely pool, for leases and segments; a transaction is refused (a
 * lease outlives it).
 *
 * @example
 * import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
 * const lease = await leaseNodeId({ client: kyselySqlClient(db), layout: layouts.default });
 * const generator = new Snowflake({ layout: layouts.default, lease });
 */
export function kyselySqlClient<DB>(db: Kysely<DB>): SqlClient {
  const dialect = kyselyDialect(db);
  if (db.isTransaction) {
    throw new InvalidArgumentError('db', 'a Kysely instance (not a transaction)', 'a transaction');
  }
  const run = (sql: string, params: readonly SqlParam[] = []) =>
    db.executeQuery(
      CompiledQuery.raw(dialect === 'postgres' ? toPostgresPlaceholders(sql) : sql, [...params]),
    );
  return {
    dialect,
    async query<Row>(sql: string, params?: readonly SqlParam[]): Promise<Row[]> {
      return (await run(sql, params)).rows as Row[];
    },
    async execute(sql: string, params?: readonly SqlParam[]): Promise<number> {
      return Number((await run(sql, params)).numAffectedRows ?? 0n);
    },
  };
}
