import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestDatabase, type DroppableTestDatabase, selectedDialects } from './create-test-database.js';
import { resolveServer } from './database-servers.js';
import type { Dialect, TestDatabase } from './test-database.js';

/** What a dialect's describe block hands its tests. */
export interface DialectContext {
  readonly dialect: Dialect;
  /** The block's fresh database. Read it inside hooks and tests (it exists once `beforeAll` ran). */
  readonly db: TestDatabase;
}

/**
 * One `describe` per selected dialect (see `DIALECTS`), titled `title [dialect]`. Its `beforeAll`
 * creates a fresh database and its `afterAll` drops it. When a server is unreachable: with
 * `CI=true` the block's `beforeAll` throws, so every test in it fails; elsewhere (after trying
 * testcontainers) the block holds one skipped test whose title gives the reason.
 *
 * @example
 * describeEachDialect('leases', (ctx) => {
 *   test('GIVEN an empty table THEN count is 0', async () => {
 *     await ctx.db.query('CREATE TABLE t (id BIGINT PRIMARY KEY)');
 *     expect(await ctx.db.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: '0' }]);
 *   });
 * });
 */
export function describeEachDialect(
  title: string,
  body: (ctx: DialectContext) => void,
  options: { label?: string; dialects?: readonly Dialect[] } = {},
): void {
  for (const dialect of options.dialects ?? selectedDialects()) {
    describe(`${title} [${dialect}]`, async () => {
      let unreachable: unknown;
      if (dialect !== 'sqlite') {
        try {
          const server = await resolveServer(dialect);
          if (server.kind === 'skip') {
            console.warn(`[snowkey test harness] ${dialect} tests skipped: ${server.reason}`);
            test.skip(`skipped: ${server.reason}`, () => {});
            return;
          }
        } catch (err) {
          unreachable = err;
        }
      }

      let db: DroppableTestDatabase | undefined;
      beforeAll(async () => {
        if (unreachable) throw unreachable;
        db = await createTestDatabase(dialect, options.label ?? title);
      });
      afterAll(async () => {
        await db?.drop();
      });

      body({
        dialect,
        get db(): TestDatabase {
          if (!db)
            throw new Error(`the ${dialect} test database is not ready (read ctx.db inside hooks or tests)`);
          return db;
        },
      });
    });
  }
}
