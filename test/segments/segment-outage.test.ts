import {
  manualClock,
  mysqlSqlClient,
  pgSqlClient,
  SegmentAllocator,
  SegmentStoreError,
  SegmentUnavailableError,
  type SqlClient,
  sqliteSqlClient,
} from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { caught } from '../../packages/core/test/caught.js';
import { describeEachDialect } from '../helpers/databases.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import type { TestDatabase } from '../helpers/test-database.js';

const T0 = Date.UTC(2026, 0, 1);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));

/** What a test can do to the database under the allocator: take it away in two ways, and give it back. */
interface Outage {
  readonly client: SqlClient;
  /** Statements fail at once. */
  cut(): void;
  /** Statements hang (sent, never answered). */
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * PostgreSQL and MariaDB through a TCP proxy of the test's own. SQLite has no wire: a second
 * connection holding an exclusive lock is its outage (the allocator's connection does not wait
 * for locks, so each statement fails at once with SQLITE_BUSY), and it cannot hang.
 */
async function outage(db: TestDatabase): Promise<Outage> {
  if (db.dialect === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const own = new Database(db.filename!, { timeout: 0 });
    const blocker = new Database(db.filename!);
    return {
      client: sqliteSqlClient(own),
      cut: () => void blocker.exec('BEGIN EXCLUSIVE'),
      stall: () => {
        throw new Error('a SQLite statement cannot hang: it runs in this process');
      },
      restore: () => {
        if (blocker.inTransaction) blocker.exec('COMMIT');
      },
      close: async () => {
        own.close();
        blocker.close();
      },
    };
  }
  const proxy = await startTcpProxy(new URL(db.url));
  const url = proxy.via(db.url);
  if (db.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => {}); // an idle connection the proxy cut
    return {
      client: pgSqlClient(pool),
      ...controls(proxy),
      close: async () => closeBoth(proxy, () => pool.end()),
    };
  }
  const mysql = await import('mysql2/promise');
  const pool = mysql.createPool({ uri: url, connectionLimit: 2 });
  return {
    client: mysqlSqlClient(pool),
    ...controls(proxy),
    close: async () => closeBoth(proxy, () => pool.end()),
  };
}

function controls(proxy: Awaited<ReturnType<typeof startTcpProxy>>) {
  return { cut: () => proxy.cut(), stall: () => proxy.stall(), restore: () => proxy.restore() };
}

async function closeBoth(proxy: Awaited<ReturnType<typeof startTcpProxy>>, end: () => Promise<void>) {
  proxy.restore();
  await end().catch(() => {});
  await proxy.close();
}

describeEachDialect('segment allocator cut off from its database', (ctx) => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const start = async (tag: string) => {
    const o = await outage(ctx.db);
    const clock = manualClock(T0);
    const errors: SegmentStoreError[] = [];
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => {
      failed = resolve;
    });
    const allocator = new SegmentAllocator({
      client: o.client,
      tag,
      step: 100,
      maxStep: 100,
      retryMs: 5000,
      clock: clock.now,
      onError: (e) => {
        errors.push(e);
        failed();
      },
    });
    closers.push(async () => {
      o.restore();
      await allocator.close();
      await o.close();
    });
    await allocator.ready();
    return { o, clock, allocator, errors, firstFailure };
  };

  test('GIVEN the database cut off after the first segment THEN ids come from the buffer, then SegmentUnavailableError at once, AND after it returns ids resume above every id issued', async () => {
    const { o, clock, allocator, errors, firstFailure } = await start('cut');
    o.cut();
    const ids = Array.from({ length: 10 }, () => allocator.nextId()); // the 10th starts the prefetch
    await firstFailure;
    expect(errors[0]).toBeInstanceOf(SegmentStoreError);
    ids.push(...Array.from({ length: 90 }, () => allocator.nextId()));
    expect(ids).toEqual(range(1, 100));

    const err = caught(() => allocator.nextId());
    expect(err).toBeInstanceOf(SegmentUnavailableError);
    expect(err).toMatchObject({ reason: 'store-failing', available: 0 });
    expect((err as Error).cause).toBeInstanceOf(SegmentStoreError);

    o.restore();
    clock.advance(5000); // the next attempt is due
    expect(() => allocator.nextId()).toThrow(SegmentUnavailableError); // and this call starts it
    await allocator.ready();
    const after = allocator.nextIds(50);
    expect(after[0]! > 100n).toBe(true);
    const [row] = await ctx.db.query<{ max_id: string }>(
      'SELECT max_id FROM snowkey_segments WHERE tag = ?',
      ['cut'],
    );
    expect(BigInt(row!.max_id) >= after.at(-1)!).toBe(true);
  });

  // A SQLite statement cannot hang: it runs in this process (see outage()).
  if (ctx.dialect !== 'sqlite')
    test('GIVEN a database that stops answering THEN nextId never waits: the buffer serves, then "refilling" at once, AND the hung fetch lands when it answers again', async () => {
      const { o, allocator } = await start('stall');
      o.stall();
      const ids = Array.from({ length: 100 }, () => allocator.nextId()); // the prefetch is sent, and hangs
      expect(ids).toEqual(range(1, 100));
      // nextId is synchronous: it throws while the fetch hangs, it cannot wait for it.
      const err = caught(() => allocator.nextId());
      expect(err).toMatchObject({ name: 'SegmentUnavailableError', reason: 'refilling', available: 0 });
      o.restore();
      await allocator.ready();
      expect(allocator.nextId()).toBe(101n);
    });
});
