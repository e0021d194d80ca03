import { int, mysqlTable, varchar as myVarchar } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, pgTable, varchar as pgVarchar } from 'drizzle-orm/pg-core';
import { integer as sqliteInteger, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import * as my from '../src/mysql-core.js';
import * as pgc from '../src/pg-core.js';
import type { IdGeneratorSource } from '../src/snowflake-id-type.js';
import * as lite from '../src/sqlite-core.js';

// The shared conformance tables (test/conformance/schema.ts), declared in each dialect's Drizzle core.

export function pgConformanceTables(generator: IdGeneratorSource) {
  const item = pgTable('sk_item', {
    id: pgc.snowflakeId(generator).primaryKey(),
    name: pgVarchar({ length: 100 }).notNull().unique(),
    qty: pgInteger().notNull(),
  });
  const parent = pgTable('sk_parent', {
    id: pgc.snowflakeId(generator).primaryKey(),
    name: pgVarchar({ length: 100 }).notNull(),
  });
  const child = pgTable('sk_child', {
    id: pgc.snowflakeId(generator).primaryKey(),
    parentId: pgc.snowflakeRef('parent_id').notNull(),
    label: pgVarchar({ length: 100 }).notNull(),
  });
  return { item, parent, child };
}

export function mysqlConformanceTables(generator: IdGeneratorSource) {
  const item = mysqlTable('sk_item', {
    id: my.snowflakeId(generator).primaryKey(),
    name: myVarchar({ length: 100 }).notNull().unique(),
    qty: int().notNull(),
  });
  const parent = mysqlTable('sk_parent', {
    id: my.snowflakeId(generator).primaryKey(),
    name: myVarchar({ length: 100 }).notNull(),
  });
  const child = mysqlTable('sk_child', {
    id: my.snowflakeId(generator).primaryKey(),
    parentId: my.snowflakeRef('parent_id').notNull(),
    label: myVarchar({ length: 100 }).notNull(),
  });
  return { item, parent, child };
}

export function sqliteConformanceTables(generator: IdGeneratorSource) {
  const item = sqliteTable('sk_item', {
    id: lite.snowflakeId(generator).primaryKey(),
    name: text().notNull().unique(),
    qty: sqliteInteger().notNull(),
  });
  const parent = sqliteTable('sk_parent', {
    id: lite.snowflakeId(generator).primaryKey(),
    name: text().notNull(),
  });
  const child = sqliteTable('sk_child', {
    id: lite.snowflakeId(generator).primaryKey(),
    parentId: lite.snowflakeRef('parent_id').notNull(),
    label: text().notNull(),
  });
  return { item, parent, child };
}
