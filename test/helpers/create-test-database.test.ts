import { once } from 'node:events';
import pg from 'pg';
import { expect, test } from 'vitest';
import { createTestDatabase } from './create-test-database.js';
import { describeEachDialect } from './databases.js';

describeEachDialect(
  'postgres test database drop',
  () => {
    // pg-pool's end() resolves before the connections it ended have closed. A DROP ... WITH
    // (FORCE) in that moment sends them a FATAL error (57P01), which their pool re-emits as an
    // `error` event: with no listener, an uncaught exception in the test process. drop() waits
    // for those sessions to leave first; without that wait this test catches the error in most
    // runs (about one drop in eight).
    test('GIVEN a pool ended just before its database is dropped, 40 times THEN none of its connections gets an error', async () => {
      const errors: unknown[] = [];
      for (let i = 0; i < 40; i++) {
        const db = await createTestDatabase('postgres', 'drop race');
        const pool = new pg.Pool({ connectionString: db.url, max: 4 });
        const closed: Promise<unknown>[] = [];
        pool.on('connect', (client) => closed.push(once(client, 'end')));
        pool.on('error', (err) => errors.push(err));
        await Promise.all([1, 2, 3, 4].map(() => pool.query('SELECT pg_sleep(0.01)')));
        expect(closed).toHaveLength(4);
        await pool.end();
        await db.drop();
        // Every connection has closed, so any error it was sent has been emitted by now.
        await Promise.all(closed);
      }
      expect(errors).toEqual([]);
    });
  },
  { dialects: ['postgres'] },
);
