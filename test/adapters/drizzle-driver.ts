import type { IdGenerator } from '@snowkey/core';
import { drizzleSqlClient } from '@snowkey/drizzle';
import { openConformanceSession } from '../../packages/drizzle/test/conformance-sessions.js';
import { openDrizzle } from '../../packages/drizzle/test/open-drizzle.js';
import type { AdapterDriver, AdapterSession } from '../conformance/adapter-driver.js';
import type { TestDatabase } from '../helpers/test-database.js';

/**
 * @snowkey/drizzle under the conformance suite: `snowflakeId` columns in each dialect's Drizzle
 * core, single and bulk rows through one `db.insert(...).values(...)` with `.returning()` (or
 * `$returningId()` on MySQL), a parent and its children as two inserts in `db.transaction`
 * (Drizzle has no cascade), reads through `db.select()`.
 *
 * A failed query reaches the suite as the database's own error: Drizzle 0.45 wraps it in a
 * `DrizzleQueryError` ("Failed query: ...") and keeps it as `cause`, which is what an application
 * reads (`err.cause.code`); the session passes the cause on. snowkey's own errors (a refused
 * caller id) are not wrapped.
 */
export const drizzleDriver: AdapterDriver = {
  name: 'drizzle',
  nullKey: 'refused by the database',
  async openSqlClient(db: TestDatabase) {
    const opened = openDrizzle(db);
    return { client: drizzleSqlClient(opened.db), close: () => opened.close() };
  },
  async open(db: TestDatabase, generator: IdGenerator): Promise<AdapterSession> {
    return openConformanceSession(db, generator);
  },
};
