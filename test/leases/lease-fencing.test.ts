import {
  decode,
  LeaseExpiredError,
  leaseNodeId,
  manualClock,
  type NodeLease,
  Snowflake,
  WorkerIdLeaseError,
} from '@snowkey/core';
import { afterEach, expect, test, vi } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { leaseTestLayout } from './fixtures/lease-layout.js';
import { type OpenedSqlClient, openSqlClient } from './open-sql-client.js';

const T0 = Date.UTC(2026, 0, 1);
const layout = leaseTestLayout(1);
/** No heartbeat timer: the tests renew by hand against an injected clock. */
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;

describeEachDialect('node-id lease fencing', (ctx) => {
  const opened: OpenedSqlClient[] = [];
  const leases: NodeLease[] = [];
  let tableNo = 0;
  const open = async () => {
    const o = await openSqlClient(ctx.db);
    opened.push(o);
    return o.client;
  };
  const lease = async (table: string, clock: () => number, client?: Awaited<ReturnType<typeof open>>) => {
    const l = await leaseNodeId({ client: client ?? (await open()), layout, table, clock, ...timing });
    leases.push(l);
    return l;
  };
  const row = async (table: string, nodeId: number) => {
    const rows = await ctx.db.query<Record<string, string | null>>(
      `SELECT holder, expires_at, ceiling, high_water FROM ${table} WHERE node_id = ?`,
      [nodeId],
    );
    return rows[0]!;
  };
  const freshTable = () => `fence_leases_${++tableNo}`;
  const ts = (id: bigint) => decode(id, { layout }).timestamp;

  afterEach(async () => {
    vi.useRealTimers();
    for (const l of leases.splice(0)) await l.release().catch(() => {});
    for (const o of opened.splice(0)) await o.close().catch(() => {});
  });

  test('GIVEN the connection is cut THEN renewal fails, the generator refuses before the lease expires, AND the next holder of the id starts after every id issued', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const cut = await openSqlClient(ctx.db);
    const l1 = await lease(table, clock.now, cut.client);
    expect([l1.nodeId, l1.startAfter, l1.ceiling]).toEqual([0, 0, T0 + 10_000]);
    const g1 = new Snowflake({ layout, lease: l1, clock: clock.now });
    const issued = g1.nextIds(5);

    clock.advance(3_000);
    await l1.renew();
    expect(await row(table, 0)).toMatchObject({
      expires_at: String(T0 + 13_000),
      ceiling: String(T0 + 13_000),
      high_water: String(T0), // with a lease, the lease's bound replaces the restart guard: ids start at once
    });
    issued.push(...g1.nextIds(5));

    await cut.close();
    clock.advance(3_000);
    await expect(l1.renew()).rejects.toBeInstanceOf(WorkerIdLeaseError);
    issued.push(...g1.nextIds(5)); // still well inside the lease

    clock.set(T0 + 12_000); // the last ms before ceiling - margin
    issued.push(g1.nextId());
    clock.set(T0 + 12_001);
    expect(() => g1.nextId()).toThrow(LeaseExpiredError);
    expect(() => g1.nextIds(3)).toThrow(/past what the lease allows/);
    // The lease has not expired yet: the database still shows it held, so another process gets the other id.
    expect(Number((await row(table, 0)).expires_at)).toBeGreaterThan(clock.current);
    const other = await lease(table, clock.now);
    expect(other.nodeId).toBe(1);

    clock.set(T0 + 13_001); // now it has expired
    const heir = await lease(table, clock.now);
    expect([heir.nodeId, heir.startAfter]).toEqual([0, T0 + 13_000]);
    const g2 = new Snowflake({ layout, lease: heir, clock: clock.now });
    const next = g2.nextIds(5);
    expect(() => g1.nextId()).toThrow(LeaseExpiredError);

    const all = [...issued, ...next];
    expect(new Set(all).size).toBe(all.length);
    expect(Math.min(...next.map(ts))).toBeGreaterThan(Math.max(...issued.map(ts)));
    expect(Math.min(...next.map(ts))).toBeGreaterThan(T0 + 13_000);
  });

  test('GIVEN a holder paused past its expiry whose row was taken THEN its renewal reports the loss AND its clock, even behind, never reaches the heir ids', async () => {
    const table = freshTable();
    const claimClock = manualClock(T0);
    const slow = manualClock(T0); // the paused holder's own clock (monotonic: it stood still while paused)
    const l1 = await lease(table, slow.now);
    const g1 = new Snowflake({ layout, lease: l1, clock: slow.now });
    const before = g1.nextIds(3);

    claimClock.set(T0 + 10_001);
    const heir = await lease(table, claimClock.now);
    expect([heir.nodeId, heir.startAfter]).toEqual([0, T0 + 10_000]);
    const g2 = new Snowflake({ layout, lease: heir, clock: claimClock.now });
    const heirIds = g2.nextIds(3);

    // Before it learns of the loss, the paused holder may still use its own ceiling: those ids lie below the heir's.
    slow.advance(2_000);
    const late = g1.nextIds(3);
    expect(Math.max(...late.map(ts))).toBeLessThanOrEqual(T0 + 10_000);
    expect(Math.min(...heirIds.map(ts))).toBeGreaterThan(T0 + 10_000);

    await expect(l1.renew()).rejects.toThrow(/taken by another holder/);
    expect(l1.state).toBe('lost');
    slow.advance(1);
    expect(() => g1.nextId()).toThrow(LeaseExpiredError);
    const all = [...before, ...late, ...heirIds];
    expect(new Set(all).size).toBe(all.length);
    expect((await row(table, 0)).holder).toBe(heir.holder);
  });

  test.each([
    ['released cleanly', 'high-water mark', true, T0 + 5_000],
    ['expired and forced free by an operator', 'ceiling', false, T0 + 10_000],
  ])(
    'GIVEN the previous holder %s AND a new holder whose clock is 60 s behind THEN it starts after the %s',
    async (_how, _mark, release, startAfter) => {
      const table = freshTable();
      const clock = manualClock(T0);
      const l1 = await lease(table, clock.now);
      const g1 = new Snowflake({ layout, lease: l1, clock: clock.now });
      g1.nextIds(3);
      clock.advance(5_000);
      const last = g1.nextIds(3);
      if (release) {
        await l1.release();
        expect(await row(table, 0)).toMatchObject({ holder: null, high_water: String(T0 + 5_000) });
        // Ids left in the current ms are below the recorded mark; a later ms is refused.
        clock.advance(1);
        expect(() => g1.nextId()).toThrow(/was released/);
      } else {
        // Expiry only says when the id may be taken; the ceiling still guards its timestamps.
        await ctx.db.query(`UPDATE ${table} SET expires_at = 0 WHERE node_id = 0`);
      }

      const behind = manualClock(T0 - 60_000);
      const l2 = await lease(table, behind.now);
      expect([l2.nodeId, l2.startAfter]).toEqual([0, startAfter]);
      const first = new Snowflake({ layout, lease: l2, clock: behind.now }).nextId();
      expect(ts(first)).toBeGreaterThan(startAfter);
      expect(first).toBeGreaterThan(last.at(-1)!);
    },
  );

  test('GIVEN a renewal that failed on the client but reached the server late, after a newer renewal THEN the row keeps the newer ceiling AND an heir starts after every id issued', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const real = await open();
    // A client-side timeout or a cut socket: the caller sees an error while the server still runs
    // the statement, here after the next renewal (it waited on a lock, say).
    let stale: { sql: string; params: readonly unknown[] } | undefined;
    let cutNext = false;
    const flaky = {
      ...real,
      execute: async (sql: string, params?: readonly (string | number | bigint | null)[]) => {
        if (!cutNext) return real.execute(sql, params);
        cutNext = false;
        stale = { sql, params: params ?? [] };
        throw new Error('Connection terminated unexpectedly');
      },
    };
    const l = await lease(table, clock.now, flaky);
    const g = new Snowflake({ layout, lease: l, clock: clock.now });
    g.nextIds(3);

    clock.set(T0 + 3_000);
    cutNext = true;
    await expect(l.renew()).rejects.toBeInstanceOf(WorkerIdLeaseError);
    clock.set(T0 + 6_000);
    g.nextIds(3);
    await l.renew();
    expect(l.ceiling).toBe(T0 + 16_000);
    clock.set(T0 + 14_500); // allowed by the newer ceiling only
    const issued = g.nextIds(3);

    await ctx.db.query(stale!.sql, stale!.params); // the server runs the older renewal now
    const after = await row(table, 0);
    expect(Number(after.ceiling)).toBeGreaterThanOrEqual(T0 + 16_000);
    expect(Number(after.high_water)).toBeGreaterThanOrEqual(T0 + 6_000);

    // The holder dies; once its row has expired, the heir must start above everything it issued.
    await ctx.db.query(`UPDATE ${table} SET expires_at = 0 WHERE node_id = 0`);
    const heir = await lease(table, clock.now);
    expect(heir.nodeId).toBe(0);
    expect(heir.startAfter).toBeGreaterThanOrEqual(Math.max(...issued.map(ts)));
  });

  test('GIVEN a lease whose ceiling is ahead of its clock (inherited) AND renewals fail THEN the generator refuses once the lease expires by its own clock, AND resumes after a renewal', async () => {
    const table = freshTable();
    const first = await lease(table, manualClock(T0).now);
    await first.release();
    await ctx.db.query(`UPDATE ${table} SET high_water = ? WHERE node_id = 0`, [T0 + 50_000]);
    const clock = manualClock(T0); // behind the previous holder's mark
    const l = await lease(table, clock.now);
    expect([l.nodeId, l.startAfter, l.expiresAt, l.ceiling]).toEqual([
      0,
      T0 + 50_000,
      T0 + 10_000,
      T0 + 60_000,
    ]);

    clock.set(T0 + 50_000); // no renewal succeeded: expired at T0 + 10 s, though below the ceiling
    const g = new Snowflake({ layout, lease: l, clock: clock.now });
    expect(() => g.nextId()).toThrow(LeaseExpiredError);
    expect(() => g.nextId()).toThrow(/the lease expired at 2026-01-01T00:00:10\.000Z/);
    await l.renew();
    expect(ts(g.nextId())).toBeGreaterThan(T0 + 50_000);
  });

  test('GIVEN a generator that borrowed time units ahead of its clock THEN the released high-water mark covers them AND the heir starts after them', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const l = await lease(table, clock.now);
    const g = new Snowflake({
      layout,
      lease: l,
      clock: clock.now,
      sequenceOverflow: 'borrow',
      maxBorrowMs: 50,
    });
    // five time units of ids while the clock stands still: the generator borrows four of them
    const ids = g.nextIds((layout.maxSequence + 1) * 5);
    const borrowed = Math.max(...ids.map(ts));
    expect(borrowed).toBeGreaterThan(clock.current + 1);
    await l.release();
    expect(Number((await row(table, 0)).high_water)).toBe(borrowed);

    const heir = await lease(table, clock.now);
    expect([heir.nodeId, heir.startAfter]).toEqual([0, borrowed]);
    expect(ts(new Snowflake({ layout, lease: heir, clock: clock.now }).nextId())).toBeGreaterThan(borrowed);
  });

  test('GIVEN every node id held THEN leasing throws WorkerIdLeaseError naming the range', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    await lease(table, clock.now);
    await lease(table, clock.now);
    await expect(lease(table, clock.now)).rejects.toThrow(WorkerIdLeaseError);
    await expect(lease(table, clock.now)).rejects.toThrow(
      /every node id 0\.\.1 of layout "lease-test" is held .*\(2 live leases\)/,
    );
  });

  test('GIVEN the heartbeat timer fires THEN the row is renewed with the high-water mark, AND a failing renewal reaches onRenewalError', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const table = freshTable();
    const clock = manualClock(T0);
    const errors: unknown[] = [];
    const cut = await openSqlClient(ctx.db);
    const l = await leaseNodeId({
      client: cut.client,
      layout,
      table,
      clock: clock.now,
      ttlMs: 10_000,
      renewEveryMs: 3_000,
      onRenewalError: (e) => errors.push(e),
    });
    leases.push(l);
    const g = new Snowflake({ layout, lease: l, clock: clock.now });
    clock.advance(2_000);
    g.nextId();
    clock.advance(1_000);
    vi.advanceTimersByTime(3_000);
    await l.renew(); // joins the renewal the timer started
    expect(await row(table, l.nodeId)).toMatchObject({
      expires_at: String(T0 + 13_000),
      high_water: String(T0 + 2_000),
    });

    await cut.close();
    vi.advanceTimersByTime(3_000);
    await expect(l.renew()).rejects.toThrow(WorkerIdLeaseError);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WorkerIdLeaseError);
  });
});
