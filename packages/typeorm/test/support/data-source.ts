import { exactSqliteIntegers } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import { DataSource, type DataSourceOptions } from 'typeorm';

/**
 * TypeORM options for a harness database: pg and mysql2 with TypeORM's defaults (which return
 * BIGINT as strings), better-sqlite3 with exact integers. `overrides` replace driver options.
 */
export function dataSourceOptions(
  db: TestDatabase,
  entities: DataSourceOptions['entities'],
  overrides: Record<string, unknown> = {},
): DataSourceOptions {
  const base =
    db.dialect === 'postgres'
      ? { type: 'postgres' as const, url: db.url }
      : db.dialect === 'mysql'
        ? { type: 'mysql' as const, url: db.url }
        : { type: 'better-sqlite3' as const, database: db.filename!, prepareDatabase: exactSqliteIntegers };
  return { ...base, entities, ...overrides } as DataSourceOptions;
}

/** A new, not yet initialised DataSource on `db`. */
export function newDataSource(
  db: TestDatabase,
  entities: DataSourceOptions['entities'],
  overrides: Record<string, unknown> = {},
): DataSource {
  return new DataSource(dataSourceOptions(db, entities, overrides));
}
