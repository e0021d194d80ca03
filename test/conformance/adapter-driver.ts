import type { IdGenerator, SqlClient } from '@snowkey/core';
import type { TestDatabase } from '../helpers/test-database.js';

/**
 * What an adapter supplies to the shared conformance suite (./suite.ts). The suite creates the
 * tables itself with the SQL in ./schema.ts and checks every result with raw SQL reads
 * (TestDatabase.query), never through the adapter.
 *
 * Tables (snake_case, same on every dialect):
 *   sk_item   (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL)
 *   sk_parent (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL)
 *   sk_child  (id BIGINT PRIMARY KEY, parent_id BIGINT NOT NULL REFERENCES sk_parent(id), label VARCHAR(100) NOT NULL)
 */
export interface ItemInput {
  /**
   * A key. The suite also passes what callers get wrong (`null`, a Number, a string...), cast to
   * this type, to check that every adapter applies core's one rule (`generateOrKeep`) to it.
   */
  id?: bigint;
  name: string;
  qty: number;
}

export interface AdapterSession {
  /** Insert one item through the adapter's ordinary single-row path; return the id on what the call returned. */
  insertOne(item: ItemInput): Promise<bigint>;
  /** Insert many items in one bulk call; return the ids in input order as returned to the caller. */
  insertMany(items: ItemInput[]): Promise<bigint[]>;
  /** Insert a parent and its children through the adapter's cascade / nested-write path. */
  insertParentWithChildren(
    parentName: string,
    childLabels: string[],
  ): Promise<{ parentId: bigint; childIds: bigint[] }>;
  /**
   * Inside one transaction, insert the items; the transaction commits if all succeed. Return the
   * ids. If any insert fails (e.g. a duplicate name), the error propagates and nothing is kept.
   */
  insertInTransaction(items: ItemInput[]): Promise<bigint[]>;
  /** Read one item back through the adapter (to prove BIGINT reads back as an exact bigint). */
  findItem(id: bigint): Promise<{ id: bigint; name: string } | null>;
  /**
   * The ids of the items whose id is in `minId..maxId` (both inclusive), in ascending order, read
   * through the adapter's ORM the way the docs' recipe for queries by time does it
   * (docs/queries-by-time.md).
   */
  findItemIdsBetween(minId: bigint, maxId: bigint): Promise<bigint[]>;
  close(): Promise<void>;
}

export interface AdapterDriver {
  /** 'typeorm' | 'prisma' | 'knex' | 'drizzle' */
  readonly name: string;
  /**
   * What a caller's `null` in a NOT NULL snowflake column becomes: `'generated'` where the adapter
   * knows the column cannot hold NULL (TypeORM's metadata; Knex's configured key columns), or
   * `'refused by the ORM'` where the ORM's types admit `null` only on nullable fields and its own
   * validation refuses it elsewhere, so the adapter passes it on (Prisma: its runtime data model
   * does not say which fields are nullable), or `'refused by the database'` where the ORM's types
   * admit `null` only on nullable columns and the ORM binds a `null` itself, with no hook for the
   * adapter, so the column's NOT NULL refuses it (Drizzle calls `$defaultFn` only for `undefined`
   * and never passes `null` to a column's `toDriver`).
   */
  readonly nullKey: 'generated' | 'refused by the ORM' | 'refused by the database';
  /** Open a session on `db` whose adapter takes ids from `generator`. Tables already exist. */
  open(db: TestDatabase, generator: IdGenerator): Promise<AdapterSession>;
  /** The adapter's own SqlClient factory over a fresh ORM connection to `db` (for a segment allocator). */
  openSqlClient(db: TestDatabase): Promise<{ client: SqlClient; close(): Promise<void> }>;
}
