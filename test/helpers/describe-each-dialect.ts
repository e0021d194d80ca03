import { aroundAll, describe, test } from 'vitest';
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
 * One `describe` per selected dialect (see `DIALECTS`), titled `title [dialect]`. A fresh database
 * is created before the block's own hooks and tests and dropped after them, even when one of the
 * block's `afterAll` hooks throws (vitest stops running a block's later `afterAll` hooks at the
 * first that throws, so the drop is not one of them: it wraps the block with `aroundAll`).
 * When a server is unreachable: with `CI=true` the block holds one failing test whose error says
 * so; elsewhere (after trying testcontainers) one skipped test whose title gives the reason.
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
      if (dialect !== 'sqlite') {
        let server: Awaited<ReturnType<typeof resolveServer>>;
        try {
          server = await resolveServer(dialect);
        } catch (err) {
          // CI=true: a failing test (not a failed hook, which vitest reports as skipped tests).
          test(`GIVEN CI=true THEN the ${dialect} server must be reachable`, () => {
            throw err;
          });
          return;
        }
        if (server.kind === 'skip') {
          console.warn(`[snowkey test harness] ${dialect} tests skipped: ${server.reason}`);
          test.skip(`skipped: ${server.reason}`, () => {});
          return;
        }
      }

      let db: DroppableTestDatabase | undefined;
      aroundAll(async (runSuite) => {
        db = await createTestDatabase(dialect, options.label ?? title);
        try {
          await runSuite();
        } finally {
          await db.drop();
        }
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
