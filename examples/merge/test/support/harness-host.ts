import {
  createTestDatabase,
  type Dialect,
  type DroppableTestDatabase,
  type TestDatabase,
} from '@snowkey/test-harness';
import type { DatabaseHost } from '../../src/index.js';

/**
 * A DatabaseHost whose databases come from the repository's test harness (fresh, uniquely named,
 * dropped by `dropAll`), with the harness's raw-SQL connection to each one as the test's oracle.
 */
export function harnessHost(dialect: Dialect) {
  const made = new Map<string, DroppableTestDatabase>();
  const host: DatabaseHost = {
    dialect,
    async create(name) {
      const db = await createTestDatabase(dialect, name.replace(/^snowkey_/, ''));
      made.set(name, db);
      return { dialect, url: db.url, label: name };
    },
  };
  return {
    host,
    /** The harness connection to the database created as `name`. */
    oracle(name: string): TestDatabase {
      const db = made.get(name);
      if (!db) throw new Error(`no database "${name}" was created (have ${[...made.keys()].join(', ')})`);
      return db;
    },
    async dropAll(): Promise<void> {
      await Promise.all([...made.values()].map((d) => d.drop()));
      made.clear();
    },
  };
}
