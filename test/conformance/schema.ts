import { sqliteKeyGuardDdl } from '@snowkey/core';
import type { Dialect, TestDatabase } from '../helpers/test-database.js';

/**
 * The conformance tables (documented in ./adapter-driver.ts), one DDL list per dialect. No id
 * column has a default or auto-increment: a stored id can only come from the application. On
 * SQLite every key is the rowid (`INTEGER PRIMARY KEY`, the form the READMEs recommend) with
 * core's guard trigger, which refuses the NULL or missing key SQLite would otherwise fill itself.
 */
const DDL: Record<Dialect, readonly string[]> = {
  postgres: [
    'CREATE TABLE sk_item (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL)',
    'CREATE TABLE sk_parent (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL)',
    'CREATE TABLE sk_child (id BIGINT NOT NULL PRIMARY KEY, parent_id BIGINT NOT NULL REFERENCES sk_parent(id), label VARCHAR(100) NOT NULL)',
  ],
  mysql: [
    'CREATE TABLE sk_item (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL) ENGINE=InnoDB',
    'CREATE TABLE sk_parent (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL) ENGINE=InnoDB',
    'CREATE TABLE sk_child (id BIGINT NOT NULL PRIMARY KEY, parent_id BIGINT NOT NULL, label VARCHAR(100) NOT NULL, FOREIGN KEY (parent_id) REFERENCES sk_parent(id)) ENGINE=InnoDB',
  ],
  sqlite: [
    'CREATE TABLE sk_item (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL)',
    sqliteKeyGuardDdl('sk_item'),
    'CREATE TABLE sk_parent (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL)',
    sqliteKeyGuardDdl('sk_parent'),
    'CREATE TABLE sk_child (id INTEGER PRIMARY KEY, parent_id BIGINT NOT NULL REFERENCES sk_parent(id), label VARCHAR(100) NOT NULL)',
    sqliteKeyGuardDdl('sk_child'),
  ],
};

/** Children first, so foreign keys never block. */
const TABLES_CHILD_FIRST = ['sk_child', 'sk_parent', 'sk_item'] as const;

/**
 * The CREATE TABLE statements of the conformance tables for `dialect`.
 *
 * @example
 * for (const sql of conformanceDdl('mysql')) await db.query(sql);
 */
export function conformanceDdl(dialect: Dialect): readonly string[] {
  return DDL[dialect];
}

/**
 * Creates the conformance tables in `db`, dropping any left from an earlier run.
 *
 * @example
 * await createConformanceTables(ctx.db);
 */
export async function createConformanceTables(db: TestDatabase): Promise<void> {
  for (const table of TABLES_CHILD_FIRST) await db.query(`DROP TABLE IF EXISTS ${table}`);
  for (const sql of DDL[db.dialect]) await db.query(sql);
}

/**
 * Deletes every row of the conformance tables, children first.
 *
 * @example
 * beforeEach(() => clearConformanceTables(ctx.db));
 */
export async function clearConformanceTables(db: TestDatabase): Promise<void> {
  for (const table of TABLES_CHILD_FIRST) await db.query(`DELETE FROM ${table}`);
}
