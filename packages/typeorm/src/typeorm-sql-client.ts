import { InvalidArgumentError, type SqlClient, type SqlDialect } from '@snowkey/core';
import { type SqlParam, toPostgresPlaceholders } from '@snowkey/core/adapter';
import type { DataSource, QueryResult } from 'typeorm';

const DIALECTS: Readonly<Record<string, SqlDialect>> = {
  postgres: 'postgres',
  cockroachdb: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
  'aurora-mysql': 'mysql',
  'better-sqlite3': 'sqlite',
  sqlite: 'sqlite',
};

/**
 * Core's {@link SqlClient} over a TypeORM DataSource, so worker-id leases and the segment
 * allocator use the application's own connection pool. Each call borrows a query runner from the
 * pool and returns it; `?` placeholders are rewritten for PostgreSQL.
 *
 * @example
 * await dataSource.initialize();
 * const lease = await leaseNodeId({ client: typeormSqlClient(dataSource), layout: layouts.default });
 * attachSnowflakes(dataSource, { generator: new Snowflake({ lease }) });
 */
export function typeormSqlClient(dataSource: DataSource): SqlClient {
  const type = (dataSource as { options?: { type?: unknown } } | undefined)?.options?.type;
  const dialect = typeof type === 'string' ? DIALECTS[type] : undefined;
  if (!dialect) {
    throw new InvalidArgumentError(
      'dataSource',
      `a TypeORM DataSource of type ${Object.keys(DIALECTS).join(', ')}`,
      type ?? dataSource,
    );
  }
  const run = async (sql: string, params: readonly SqlParam[] = []): Promise<QueryResult> => {
    const runner = dataSource.createQueryRunner();
    try {
      const text = dialect === 'postgres' ? toPostgresPlaceholders(sql) : sql;
      return (await runner.query(text, [...params], true)) as QueryResult;
    } finally {
      await runner.release();
    }
  };
  return {
    dialect,
    query: async <Row>(sql: string, params?: readonly SqlParam[]) =>
      (await run(sql, params)).records as Row[],
    execute: async (sql: string, params?: readonly SqlParam[]) => (await run(sql, params)).affected ?? 0,
  };
}
