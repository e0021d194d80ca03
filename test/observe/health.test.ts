import {
  defineLayout,
  leaseNodeId,
  manualClock,
  type NodeLease,
  SegmentAllocator,
  Snowflake,
  type SqlClient,
  snowkeyHealth,
} from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { type OpenedSqlClient, openSqlClient } from '../leases/open-sql-client.js';

const T0 = Date.UTC(2026, 0, 1);
const layout = defineLayout({
  name: 'health-test',
  timestampBits: 41,
  nodeBits: { workerId: 4 },
  sequenceBits: 12,
});
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;

function withOutage(client: SqlClient) {
  const state = { down: false };
  const fail = () => Promise.reject(new Error('connection refused'));
  const wrapped: SqlClient = {
    dialect: client.dialect,
    query: (sql, params) => (state.down ? fail() : client.query(sql, params)),
    execute: (sql, params) => (state.down ? fail() : client.execute(sql, params)),
  };
  return { client: wrapped, state };
}

describeEachDialect('health', (ctx) => {
  const opened: OpenedSqlClient[] = [];
  const leases: NodeLease[] = [];
  const open = async () => {
    const o = await openSqlClient(ctx.db);
    opened.push(o);
    return o.client;
  };
  afterEach(async () => {
    for (const l of leases.splice(0)) await l.release().catch(() => {});
    for (const o of opened.splice(0)) await o.close().catch(() => {});
  });

  test('GIVEN a generator on a real lease THEN health passes, warns while renewals fail, fails once fenced, AND is not live once the lease is lost', async () => {
    const table = 'health_leases';
    const clock = manualClock(T0);
    const { client, state } = withOutage(await open());
    const lease = await leaseNodeId({ client, layout, table, clock: clock.now, ...timing });
    leases.push(lease);
    const gen = new Snowflake({ layout, lease, clock: clock.now });
    gen.nextIds(10);
    const row = async () =>
      (
        await ctx.db.query<Record<string, unknown>>(
          `SELECT node_id, holder, expires_at FROM ${table} WHERE node_id = ?`,
          [lease.nodeId],
        )
      )[0]!;

    let h = snowkeyHealth({ generator: gen, lease });
    const r = await row();
    expect(h).toMatchObject({ status: 'pass', ready: true, live: true, problems: [] });
    expect(h.generator).toMatchObject({ nodeId: Number(r.node_id), idsIssued: 10, fenceTrips: 0 });
    expect(h.lease).toMatchObject({
      nodeId: Number(r.node_id),
      state: 'held',
      holder: r.holder,
      expiresAt: new Date(Number(r.expires_at)).toISOString(),
      expiresInMs: Number(r.expires_at) - clock.current,
      usableForMs: Number(r.expires_at) - 1_000 - clock.current,
      fenced: false,
    });
    expect(JSON.parse(JSON.stringify(h))).toEqual(h); // plain JSON for a probe's body

    state.down = true;
    clock.advance(3_000);
    await expect(lease.renew()).rejects.toThrow(/could not renew/);
    h = snowkeyHealth({ generator: gen, lease });
    expect(h).toMatchObject({ status: 'warn', ready: true, live: true });
    expect(h.problems).toEqual([expect.stringMatching(/renewals are failing .*ids stop at .* in 6000 ms/)]);
    expect(h.lease).toMatchObject({ renewalFailures: 1, lastError: { name: 'WorkerIdLeaseError' } });

    clock.set(lease.usableUntil + 1);
    expect(() => gen.nextId()).toThrow(/past what the lease allows|expires/);
    h = snowkeyHealth({ generator: gen, lease });
    expect(h).toMatchObject({ status: 'fail', ready: false, live: true, lease: { fenced: true } });
    expect(h.generator).toMatchObject({ fenceTrips: 1, lastError: { name: 'LeaseExpiredError' } });

    clock.set(Number(r.expires_at) + 1);
    const heir = await leaseNodeId({ client: await open(), layout, table, clock: clock.now, ...timing });
    leases.push(heir);
    expect(heir.nodeId).toBe(lease.nodeId);
    state.down = false;
    await expect(lease.renew()).rejects.toThrow(/taken by another holder/);
    h = snowkeyHealth({ generator: gen, lease });
    expect(h).toMatchObject({ status: 'fail', ready: false, live: false, lease: { state: 'lost' } });
    expect(h.problems[0]).toMatch(/was lost to another holder/);
  });

  test('GIVEN a segment allocator on the real SQL store THEN health fails before ready(), passes with ids in memory, warns while the store fails, AND fails once the buffers are dry', async () => {
    const clock = manualClock(T0);
    const { client, state } = withOutage(await open());
    const orders = new SegmentAllocator({ client, tag: 'health', step: 20, maxStep: 20, clock: clock.now });
    expect(snowkeyHealth({ segments: [orders] })).toMatchObject({ status: 'fail', ready: false, live: true });
    await orders.ready();
    const [row] = await ctx.db.query<{ max_id: unknown }>(
      "SELECT max_id FROM snowkey_segments WHERE tag = 'health'",
    );
    let h = snowkeyHealth({ segments: [orders] });
    expect(Number(row!.max_id)).toBe(20);
    expect(h).toMatchObject({ status: 'pass', ready: true });
    expect(h.segments).toEqual([
      expect.objectContaining({ tag: 'health', state: 'ready', buffered: 20, step: 20, idsIssued: 0 }),
    ]);
    expect(h.segments![0]!.remainingIds).toBe(String(2n ** 63n - 1n - 20n));

    state.down = true; // the background take that nextIds() starts fails
    orders.nextIds(5);
    await expect(orders.ready(16)).rejects.toThrow(/could not take a segment/);
    h = snowkeyHealth({ segments: [orders] });
    expect(h).toMatchObject({ status: 'warn', ready: true });
    expect(h.problems).toEqual([expect.stringMatching(/15 ids in memory and the store is failing/)]);

    orders.nextIds(15);
    h = snowkeyHealth({ segments: [orders] });
    expect(h).toMatchObject({ status: 'fail', ready: false, live: true });
    expect(h.problems).toEqual([expect.stringMatching(/no id in memory and the store is failing/)]);
    await orders.close();
    expect(snowkeyHealth({ segments: [orders] }).problems).toEqual([
      'segment tag "health": the allocator is closed',
    ]);
  });
});

test('GIVEN nothing to check THEN health passes with no parts', () => {
  expect(snowkeyHealth({})).toEqual({ status: 'pass', ready: true, live: true, problems: [] });
});
