import { bigintTypeCast } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import { Kysely, type KyselyPlugin, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { pgBigintTypes } from '../src/index.js';

/**
 * A Kysely instance on the harness's database with `plugins`, BIGINT read back as bigint (`exact`,
 * the default: the settings the README gives) or with each driver's own defaults. Small pools:
 * the machine is shared.
 */
export function openKysely<DB>(
  db: TestDatabase,
  { exact = true, plugins = [] }: { exact?: boolean; plugins?: KyselyPlugin[] } = {},
): Kysely<DB> {
  if (db.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: db.url,
      max: 2,
      ...(exact ? { types: pgBigintTypes(pg.types) } : {}),
    });
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins });
  }
  if (db.dialect === 'mysql') {
    const pool = createPool({
      uri: db.url,
      connectionLimit: 2,
      ...(exact ? { typeCast: bigintTypeCast() } : {}),
    });
    return new Kysely<DB>({ dialect: new MysqlDialect({ pool }), plugins });
  }
  const database = new Database(db.filename!);
  database.defaultSafeIntegers(exact);
  return new Kysely<DB>({ dialect: new SqliteDialect({ database }), plugins });
}
