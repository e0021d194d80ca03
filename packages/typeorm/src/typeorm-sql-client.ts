import type { SqliteDatabaseLike, SqlParam } from '@snowkey/core';
import { InvalidArgumentError, type SqlClient, type SqlDialect, sqliteSqlClient } from '@snowkey/core';
import { toPostgresPlaceholders } from '@snowkey/core/adapter';
import type { DataSource, QueryResult } from 'typeorm';

const DIALECTS: Readonly<Record<string, SqlDialect>> = {
  postgres: 'postgres',
  cockroachdb: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
  'aurora-mysql': 'mysql',
  'better-sqlite3': 'sqlite',
};

/**
 * Core's {@link SqlClient} over a TypeORM DataSource, for leases and segments, apart from any
 * transaction the application has open.
 *
 * @example
 * await dataSource.initialize();
 * const lease = await leaseNodeId({ client: typeormSqlClient(dataSource), layout: layouts.default });
 * attachSnowflakes(dataSource, { generator: new Snowflake({ lease }) });
 */
export function typeormSqlClient(dataSource: DataSource): SqlClient {
  // PostgreSQL and MySQL borrow a query runner per call. On better-sqlite3 TypeORM has one
  // connection, so it is core's sqliteSqlClient, which refuses a statement inside a transaction.
  const type = (dataSource as { options?: { type?: unknown } } | undefined)?.options?.type;
  if (type === 'sqlite') {
    throw new InvalidArgumentError(
      'dataSource',
      'a DataSource of type better-sqlite3 on SQLite (the "sqlite" driver cannot tell whether its one connection is inside a transaction, so a lease or segment written through it could roll back with the application\'s)',
      type,
    );
  }
  const dialect = typeof type === 'string' ? DIALECTS[type] : undefined;
  if (!dialect) {
    throw new InvalidArgumentError(
      'dataSource',
      `a TypeORM DataSource of type ${Object.keys(DIALECTS).join(', ')}`,
      type ?? dataSource,
    );
  }
  if (dialect === 'sqlite') return connectionSqlClient(dataSource);
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

/** Core's sqliteSqlClient on the DataSource's better-sqlite3 connection, which exists once it is initialized. */
function connectionSqlClient(dataSource: DataSource): SqlClient {
  const client = (): SqlClient => {
    const db = (dataSource.driver as { databaseConnection?: unknown } | undefined)?.databaseConnection;
    if (db === undefined || db === null) {
      throw new InvalidArgumentError(
        'dataSource',
        'an initialized DataSource (await dataSource.initialize() first)',
        'a DataSource without a connection',
      );
    }
    return sqliteSqlClient(db as SqliteDatabaseLike);
  };
  return {
    dialect: 'sqlite',
    query: async <Row>(sql: string, params?: readonly SqlParam[]) => client().query<Row>(sql, params),
    execute: async (sql: string, params?: readonly SqlParam[]) => client().execute(sql, params),
  };
}
