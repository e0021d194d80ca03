import { decode, leaseNodeId, manualClock, type NodeLease, Snowflake, type SqlClient } from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/test-database.js';
import { leaseTestLayout } from './fixtures/lease-layout.js';
import { gatedSqlClient } from './gated-sql-client.js';
import { type OpenedSqlClient, openSqlClient } from './open-sql-client.js';

const T0 = Date.UTC(2026, 0, 1);
const layout = leaseTestLayout(1); // node ids 0 and 1
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;

describeEachDialect('node-id lease races', (ctx) => {
  const closers: (() => Promise<void>)[] = [];
  const leases: NodeLease[] = [];
  let tableNo = 0;
  const open = async () => {
    const o: OpenedSqlClient = await openSqlClient(ctx.db);
    closers.push(o.close);
    return o.client;
  };
  const lease = async (table: string, clock: () => number, client: SqlClient) => {
    const l = await leaseNodeId({ client, layout, table, clock, ...timing });
    leases.push(l);
    return l;
  };
  const rows = (table: string) =>
    ctx.db.query<{ node_id: number; holder: string | null; ceiling: string; high_water: string }>(
      `SELECT node_id, holder, ceiling, high_water FROM ${table} ORDER BY node_id`,
    );
  const freshTable = () => `race_leases_${++tableNo}`;
  const ts = (id: bigint) => decode(id, { layout }).timestamp;

  afterEach(async () => {
    for (const l of leases.splice(0)) await l.release().catch(() => {});
    for (const close of closers.splice(0)) await close().catch(() => {});
  });

  test('GIVEN a claimant that read an expired row AND the holder renews before the takeover lands THEN the takeover changes nothing, the claimant takes the other id AND the holder keeps its own', async () => {
    const table = freshTable();
    const holderClock = manualClock(T0);
    const holder = await lease(table, holderClock.now, await open());
    const claimant = gatedSqlClient(await open());
    const gate = claimant.holdNext(/^UPDATE/); // its takeover of id 0, after it read the row
    const claiming = lease(table, manualClock(T0 + 10_001).now, claimant);
    await gate.reached;

    holderClock.set(T0 + 9_000); // late, but its row is not taken yet
    await holder.renew();
    gate.open();
    const other = await claiming;

    expect([holder.nodeId, holder.state, other.nodeId]).toEqual([0, 'held', 1]);
    expect((await rows(table)).map((r) => r.holder)).toEqual([holder.holder, other.holder]);
    await holder.renew(); // still its own
  });

  test('GIVEN release is called while a renewal is in flight THEN the generator stops at once AND the row ends free with the high-water mark', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const client = gatedSqlClient(await open());
    const l = await lease(table, clock.now, client);
    const g = new Snowflake({ layout, lease: l, clock: clock.now });
    clock.set(T0 + 3_000);
    const last = g.nextIds(3);

    const gate = client.holdNext(/^UPDATE/);
    const renewing = l.renew();
    await gate.reached;
    const releasing = l.release();
    clock.advance(1);
    expect(() => g.nextId()).toThrow(/was released/);
    gate.open();
    await Promise.all([renewing, releasing]);

    const [r] = await rows(table);
    expect(r).toMatchObject({ holder: null, high_water: String(T0 + 3_000) });
    const heir = await lease(table, manualClock(T0 + 3_000).now, await open());
    expect([heir.nodeId, heir.startAfter]).toEqual([0, T0 + 3_000]);
    const first = new Snowflake({ layout, lease: heir, clock: manualClock(T0 + 3_000).now }).nextId();
    expect(ts(first)).toBeGreaterThan(Math.max(...last.map(ts)));
  });

  // SQLite has one writer at a time and better-sqlite3 blocks the thread, so only the servers can
  // show an UPDATE waiting on a row lock.
  if (ctx.dialect !== 'sqlite') {
    test('GIVEN a renewal holding the row lock in an open transaction AND a takeover blocked on it THEN once the renewal commits the takeover re-reads the version and changes nothing', async () => {
      const table = freshTable();
      const holderClock = manualClock(T0);
      const tx = await openSingleConnection(ctx.db);
      closers.push(tx.close);
      const holder = await lease(table, holderClock.now, tx.client);

      holderClock.set(T0 + 9_000);
      await tx.client.execute('BEGIN');
      await holder.renew(); // runs, holds the row lock, not committed yet
      const claiming = lease(table, manualClock(T0 + 10_001).now, await open());
      await waitUntilBlockedOnLock(ctx.db);
      await tx.client.execute('COMMIT');
      const other = await claiming;

      expect([holder.nodeId, holder.state, other.nodeId]).toEqual([0, 'held', 1]);
      expect((await rows(table)).map((r) => r.holder)).toEqual([holder.holder, other.holder]);
    });
  }
});

/** A SqlClient on one dedicated connection, so BEGIN and COMMIT bracket the statements between them. */
async function openSingleConnection(
  db: TestDatabase,
): Promise<{ client: SqlClient; close(): Promise<void> }> {
  const { mysqlSqlClient, pgSqlClient } = await import('@snowkey/core');
  if (db.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    return { client: pgSqlClient(c), close: () => c.end() };
  }
  const mysql = await import('mysql2/promise');
  const c = await mysql.createConnection({ uri: db.url });
  return { client: mysqlSqlClient(c), close: () => c.end() };
}

/** A readiness check: polls the server (up to 10 s) until some session waits on a row lock. */
async function waitUntilBlockedOnLock(db: TestDatabase): Promise<void> {
  const sql =
    db.dialect === 'postgres'
      ? "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
      : "SELECT COUNT(*) AS n FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'";
  // InnoDB refreshes innodb_trx only after 100 ms without a read of it, so poll it more slowly than that.
  const interval = db.dialect === 'postgres' ? 0 : 150;
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    const [{ n }] = (await db.query<{ n: string }>(sql)) as [{ n: string }];
    if (Number(n) > 0) return;
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new Error('the takeover never waited on the row lock');
}
