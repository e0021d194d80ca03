import type { IdGenerator } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import type { AdapterSession, ItemInput } from '@snowkey/test-harness/adapter-driver';
import { between, DrizzleQueryError, eq } from 'drizzle-orm';
import {
  mysqlConformanceTables,
  pgConformanceTables,
  sqliteConformanceTables,
} from './conformance-tables.js';
import { openDrizzle } from './open-drizzle.js';

type Writes = Omit<AdapterSession, 'close'>;

/**
 * The conformance suite's session on `db`, a failed query rejecting with the database's own
 * error (see {@link databaseError}), written the way the README says for each dialect:
 * RETURNING on PostgreSQL and SQLite, `$returningId()` on MySQL, synchronous transactions on
 * better-sqlite3. Drizzle has no cascade: a parent and its children are two inserts in one
 * `db.transaction`, the children referring to the parent's id.
 */
export function openConformanceSession(db: TestDatabase, generator: IdGenerator): AdapterSession {
  const { close, ...writes } = sessionOn(db, generator);
  const unwrapped =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A) =>
      fn(...args).catch((err: unknown) => {
        throw databaseError(err);
      });
  return {
    insertOne: unwrapped(writes.insertOne),
    insertMany: unwrapped(writes.insertMany),
    insertParentWithChildren: unwrapped(writes.insertParentWithChildren),
    insertInTransaction: unwrapped(writes.insertInTransaction),
    findItem: unwrapped(writes.findItem),
    findItemIdsBetween: unwrapped(writes.findItemIdsBetween),
    close,
  };
}

/**
 * The database's own error for a failed query: Drizzle 0.45 wraps it in a `DrizzleQueryError`
 * ("Failed query: ...") and keeps it as `cause`, which is what an application reads
 * (`err.cause.code`). Anything else (snowkey's own errors, such as a refused caller id, which
 * Drizzle does not wrap) is returned as it is.
 *
 * @example
 * const err = await insert().catch(databaseError);
 */
export function databaseError(err: unknown): unknown {
  return err instanceof DrizzleQueryError && err.cause !== undefined ? err.cause : err;
}

function sessionOn(db: TestDatabase, generator: IdGenerator): AdapterSession {
  const opened = openDrizzle(db);
  const close = () => opened.close();
  switch (opened.dialect) {
    case 'postgres': {
      const { item, parent, child } = pgConformanceTables(generator);
      const d = opened.db;
      const writes: Writes = {
        insertOne: async (input) => (await d.insert(item).values(input).returning({ id: item.id }))[0]!.id,
        insertMany: async (input) =>
          (await d.insert(item).values(input).returning({ id: item.id })).map((r) => r.id),
        insertParentWithChildren: (name, labels) =>
          d.transaction(async (tx) => {
            const [p] = await tx.insert(parent).values({ name }).returning({ id: parent.id });
            const rows = labels.map((label) => ({ parentId: p!.id, label }));
            const kids = await tx.insert(child).values(rows).returning({ id: child.id });
            return { parentId: p!.id, childIds: kids.map((k) => k.id) };
          }),
        insertInTransaction: (input) =>
          d.transaction(async (tx) => {
            const ids: bigint[] = [];
            for (const it of input)
              ids.push((await tx.insert(item).values(it).returning({ id: item.id }))[0]!.id);
            return ids;
          }),
        findItem: async (id) =>
          (await d.select({ id: item.id, name: item.name }).from(item).where(eq(item.id, id)))[0] ?? null,
        findItemIdsBetween: async (minId, maxId) =>
          (
            await d
              .select({ id: item.id })
              .from(item)
              .where(between(item.id, minId, maxId))
              .orderBy(item.id)
          ).map((r) => r.id),
      };
      return { ...writes, close };
    }
    case 'mysql': {
      const { item, parent, child } = mysqlConformanceTables(generator);
      const d = opened.db;
      const writes: Writes = {
        insertOne: async (input) => (await d.insert(item).values(input).$returningId())[0]!.id,
        insertMany: async (input) => (await d.insert(item).values(input).$returningId()).map((r) => r.id),
        insertParentWithChildren: (name, labels) =>
          d.transaction(async (tx) => {
            const [p] = await tx.insert(parent).values({ name }).$returningId();
            const kids = await tx
              .insert(child)
              .values(labels.map((label) => ({ parentId: p!.id, label })))
              .$returningId();
            return { parentId: p!.id, childIds: kids.map((k) => k.id) };
          }),
        insertInTransaction: (input) =>
          d.transaction(async (tx) => {
            const ids: bigint[] = [];
            for (const it of input) ids.push((await tx.insert(item).values(it).$returningId())[0]!.id);
            return ids;
          }),
        findItem: async (id) =>
          (await d.select({ id: item.id, name: item.name }).from(item).where(eq(item.id, id)))[0] ?? null,
        findItemIdsBetween: async (minId, maxId) =>
          (
            await d
              .select({ id: item.id })
              .from(item)
              .where(between(item.id, minId, maxId))
              .orderBy(item.id)
          ).map((r) => r.id),
      };
      return { ...writes, close };
    }
    case 'sqlite': {
      const { item, parent, child } = sqliteConformanceTables(generator);
      const d = opened.db;
      const writes: Writes = {
        insertOne: async (input) => d.insert(item).values(input).returning({ id: item.id }).get()!.id,
        insertMany: async (input: ItemInput[]) =>
          d
            .insert(item)
            .values(input)
            .returning({ id: item.id })
            .all()
            .map((r) => r.id),
        insertParentWithChildren: async (name, labels) =>
          d.transaction((tx) => {
            const p = tx.insert(parent).values({ name }).returning({ id: parent.id }).get()!;
            const rows = labels.map((label) => ({ parentId: p.id, label }));
            const kids = tx.insert(child).values(rows).returning({ id: child.id }).all();
            return { parentId: p.id, childIds: kids.map((k) => k.id) };
          }),
        insertInTransaction: async (input) =>
          d.transaction((tx) =>
            input.map((it) => tx.insert(item).values(it).returning({ id: item.id }).get()!.id),
          ),
        findItem: async (id) =>
          d.select({ id: item.id, name: item.name }).from(item).where(eq(item.id, id)).get() ?? null,
        findItemIdsBetween: async (minId, maxId) =>
          d
            .select({ id: item.id })
            .from(item)
            .where(between(item.id, minId, maxId))
            .orderBy(item.id)
            .all()
            .map((r) => r.id),
      };
      return { ...writes, close };
    }
  }
}
