import {
  decode,
  defineLayout,
  LeaseExpiredError,
  leaseNodeId,
  manualClock,
  type NodeLease,
  SegmentAllocator,
  Snowflake,
  type SqlClient,
  WorkerIdLeaseError,
} from '@snowkey/core';
import { snowkeyMetrics } from '@snowkey/core/otel';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { type OpenedSqlClient, openSqlClient } from '../leases/open-sql-client.js';
import { countOf, measured, metricReader, point, pointsOf } from './metric-reader.js';

const T0 = Date.UTC(2026, 0, 1);
/** 8 ids per ms, so a few dozen ids overflow the sequence. */
const layout = defineLayout({
  name: 'metrics-test',
  timestampBits: 41,
  nodeBits: { workerId: 4 },
  sequenceBits: 3,
});
/** No heartbeat: the tests renew by hand against the injected clock. */
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;

/**
 * Sequence overflows read from the ids alone: a time unit followed by another whose last id used
 * the top sequence value ran out before the generator moved on.
 */
function overflowsOf(ids: readonly bigint[]): number {
  const decoded = ids.map((id) => decode(id, { layout }));
  let n = 0;
  for (let i = 1; i < decoded.length; i++) {
    if (
      decoded[i]!.timestamp !== decoded[i - 1]!.timestamp &&
      decoded[i - 1]!.sequence === layout.maxSequence
    )
      n++;
  }
  return n;
}

/** A client whose writes fail while `down` is set: the database unreachable, as the lease sees it. */
function withOutage(client: SqlClient) {
  const state = { down: false };
  const wrapped: SqlClient = {
    dialect: client.dialect,
    query: (sql, params) =>
      state.down ? Promise.reject(new Error('connection refused')) : client.query(sql, params),
    execute: (sql, params) =>
      state.down ? Promise.reject(new Error('connection refused')) : client.execute(sql, params),
  };
  return { client: wrapped, state };
}

const readers: ReturnType<typeof metricReader>[] = [];
const reader = () => {
  const r = metricReader();
  readers.push(r);
  return r;
};

afterEach(async () => {
  for (const r of readers.splice(0)) await r.shutdown();
});

describeEachDialect('metrics through OpenTelemetry', (ctx) => {
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

  test('GIVEN a generator on a real lease THEN ids, overflows, borrows, expiry, renewals, failures, fence trips and the loss are reported as the ids and the lease row show them', async () => {
    const table = 'metrics_leases';
    const clock = manualClock(T0);
    const { client, state } = withOutage(await open());
    const lease = await leaseNodeId({ client, layout, table, clock: clock.now, ...timing });
    leases.push(lease);
    const gen = new Snowflake({ layout, lease, clock: clock.now, sequenceOverflow: 'borrow' });
    const otel = reader();
    const stop = snowkeyMetrics([gen, lease], {
      meter: otel.meter,
      attributes: { 'service.name': 'metrics-test' },
    });

    const ids = gen.nextIds(20); // 8 a ms: two time units borrowed ahead of the clock
    clock.advance(5);
    ids.push(...gen.nextIds(3), gen.nextId());
    clock.advance(3_000);
    await lease.renew();

    const [row] = await ctx.db.query<Record<string, unknown>>(
      `SELECT node_id, holder, expires_at FROM ${table} WHERE holder IS NOT NULL`,
    );
    expect(row!.holder).toBe(lease.holder);
    const nodeId = Number(row!.node_id);
    const gen_ = {
      'snowkey.node.id': nodeId,
      'snowkey.layout': 'metrics-test',
      'service.name': 'metrics-test',
    };
    const lease_ = {
      'snowkey.node.id': nodeId,
      'snowkey.lease.table': table,
      'service.name': 'metrics-test',
    };
    let m = await otel.collect();
    expect(new Set(ids).size).toBe(24);
    expect(ids.every((id) => decode(id, { layout }).workerId === nodeId)).toBe(true);
    expect(measured(m, 'snowkey.ids.issued', gen_)).toBe(24);
    expect(overflowsOf(ids)).toBe(2);
    expect(measured(m, 'snowkey.sequence.overflows', gen_)).toBe(2);
    expect(measured(m, 'snowkey.clock.borrows', gen_)).toBe(2);
    const lead = Math.max(...ids.map((id) => decode(id, { layout }).timestamp)) - clock.current;
    expect(measured(m, 'snowkey.clock.lead', gen_)).toBe(Math.max(0, lead) / 1000);
    expect(measured(m, 'snowkey.fence.trips', gen_)).toBe(0);
    expect(measured(m, 'snowkey.lease.held', lease_)).toBe(1);
    expect(measured(m, 'snowkey.lease.time_to_expiry', lease_)).toBe(
      (Number(row!.expires_at) - clock.current) / 1000,
    );
    expect(countOf(m, 'snowkey.lease.acquisition.duration', lease_)).toBe(1);
    expect(countOf(m, 'snowkey.lease.renewal.duration', lease_)).toBe(1);
    expect(pointsOf(m, 'snowkey.clock.wait.duration')).toEqual([]); // borrowing: nothing waited
    const units = Object.fromEntries([...m.values()].map((d) => [d.descriptor.name, d.descriptor.unit]));
    expect(units).toMatchObject({
      'snowkey.ids.issued': '{id}',
      'snowkey.sequence.overflows': '{overflow}',
      'snowkey.clock.borrows': '{borrow}',
      'snowkey.clock.lead': 's',
      'snowkey.fence.trips': '{trip}',
      'snowkey.lease.held': '{lease}',
      'snowkey.lease.time_to_expiry': 's',
      'snowkey.lease.acquisition.duration': 's',
      'snowkey.lease.renewal.duration': 's',
    });

    // The database stops answering: the renewal fails, then the fence stops the generator.
    state.down = true;
    clock.advance(3_000);
    await expect(lease.renew()).rejects.toBeInstanceOf(WorkerIdLeaseError);
    clock.set(lease.usableUntil + 1);
    for (let i = 0; i < 3; i++) expect(() => gen.nextId()).toThrow(LeaseExpiredError);
    m = await otel.collect();
    expect(measured(m, 'snowkey.fence.trips', gen_)).toBe(3);
    expect(
      countOf(m, 'snowkey.lease.renewal.duration', { ...lease_, 'error.type': 'WorkerIdLeaseError' }),
    ).toBe(1);
    expect(measured(m, 'snowkey.ids.issued', gen_)).toBe(24);

    // Past its expiry another process takes the id (it prefers it); the next renewal learns the loss.
    clock.set(Number(row!.expires_at) + 1);
    const heir = await leaseNodeId({
      client: await open(),
      layout,
      table,
      clock: clock.now,
      preferredNodeId: nodeId,
      ...timing,
    });
    leases.push(heir);
    expect(heir.nodeId).toBe(nodeId);
    state.down = false;
    await expect(lease.renew()).rejects.toBeInstanceOf(LeaseExpiredError);
    m = await otel.collect();
    expect(measured(m, 'snowkey.lease.held', lease_)).toBe(0);
    expect(
      countOf(m, 'snowkey.lease.renewal.duration', { ...lease_, 'error.type': 'LeaseExpiredError' }),
    ).toBe(1);

    stop();
  });

  test('GIVEN a segment allocator on the real SQL store THEN ids, buffers, step, refills, refusals, remaining ids and runway match the allocation table', async () => {
    const clock = manualClock(T0);
    const { client, state } = withOutage(await open());
    const step = 50;
    const orders = new SegmentAllocator({
      client,
      tag: 'orders',
      step,
      maxStep: step,
      maxId: 1_000,
      clock: clock.now,
    });
    const otel = reader();
    const stop = snowkeyMetrics(orders, { meter: otel.meter });
    const tag = { 'snowkey.segment.tag': 'orders' };
    const maxIdInTable = async () =>
      Number(
        (
          await ctx.db.query<{ max_id: unknown }>("SELECT max_id FROM snowkey_segments WHERE tag = 'orders'")
        )[0]!.max_id,
      );

    await orders.ready();
    const ids = orders.nextIds(30);
    clock.advance(60_000);
    await orders.ready(40); // 20 left: waits for a second segment
    ids.push(...orders.nextIds(5));
    const taken = await maxIdInTable();
    let m = await otel.collect();
    expect(taken).toBe(100);
    expect(measured(m, 'snowkey.ids.issued', tag)).toBe(ids.length);
    expect(measured(m, 'snowkey.segment.buffered', tag)).toBe(taken - Number(ids.at(-1)!));
    expect(measured(m, 'snowkey.segment.step', tag)).toBe(step);
    expect(measured(m, 'snowkey.segment.remaining', tag)).toBe(1_000 - taken);
    expect(countOf(m, 'snowkey.segment.refill.duration', tag)).toBe(taken / step);
    expect(countOf(m, 'snowkey.segment.wait.duration', tag)).toBe(2);
    // two takes a minute apart: 50 ids a minute, 900 left
    expect(measured(m, 'snowkey.segment.runway', tag)).toBe(900 / (50 / 60));
    expect(measured(m, 'snowkey.segment.unavailable', tag)).toBe(0);

    // The store fails: once the buffers run dry, calls are refused and the failed takes counted.
    state.down = true;
    ids.push(...orders.nextIds(orders.buffered));
    expect(() => orders.nextId()).toThrow(/tag "orders"/);
    await expect(orders.ready()).rejects.toThrow();
    m = await otel.collect();
    expect(measured(m, 'snowkey.segment.unavailable', tag)).toBe(1);
    expect(measured(m, 'snowkey.segment.buffered', tag)).toBe(0);
    expect(measured(m, 'snowkey.ids.issued', tag)).toBe(ids.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Number(ids.at(-1))).toBe(await maxIdInTable());
    const failed = pointsOf(m, 'snowkey.segment.refill.duration').filter(
      (p) => p.attributes['error.type'] === 'SegmentStoreError',
    );
    expect(failed.length).toBe(1);
    expect(point(m, 'snowkey.segment.refill.duration', tag).value).toMatchObject({ count: 2 });
    stop();
    await orders.close();
  });
});

test('GIVEN a generator that runs out of sequence on a real clock-like clock THEN each wait is one histogram value AND the overflows match the ids', async () => {
  const otel = reader();
  const clock = manualClock(T0, 0.25); // moves a quarter ms per reading: waits end without sleeping
  const gen = new Snowflake({ layout, workerId: 3, clock: clock.now });
  const stop = snowkeyMetrics(gen, { meter: otel.meter });
  const ids = gen.nextIds(100);
  const m = await otel.collect();
  const attrs = { 'snowkey.node.id': 3, 'snowkey.layout': 'metrics-test' };
  expect(new Set(ids).size).toBe(100);
  expect(measured(m, 'snowkey.sequence.overflows', attrs)).toBe(overflowsOf(ids));
  expect(countOf(m, 'snowkey.clock.wait.duration', attrs)).toBe(overflowsOf(ids));
  expect(measured(m, 'snowkey.clock.borrows', attrs)).toBe(0);
  expect(gen.stats().clockWaits).toBe(overflowsOf(ids));
  stop();
  const watched = { stats: () => gen.stats(), subscribe: gen.subscribe.bind(gen) };
  let reads = 0;
  const stopWatched = snowkeyMetrics(
    {
      ...watched,
      stats: () => {
        reads++;
        return watched.stats();
      },
    },
    { meter: otel.meter },
  );
  const added = reads;
  await otel.collect();
  const collected = reads;
  stopWatched();
  await otel.collect();
  expect(collected).toBe(added + 1); // one read per collection
  expect(reads).toBe(collected); // stopped: the callback no longer reads it
});

test('GIVEN the OpenTelemetry API without an SDK THEN the sources are never read after they are added: metrics cost nothing', () => {
  const gen = new Snowflake({ layout, workerId: 1 });
  let reads = 0;
  const counted = {
    stats: () => {
      reads++;
      return gen.stats();
    },
    subscribe: gen.subscribe.bind(gen),
  };
  const stop = snowkeyMetrics(counted); // the global meter provider: the API's no-op
  const afterAdd = reads;
  for (let i = 0; i < 10_000; i++) gen.nextId();
  expect(reads).toBe(afterAdd);
  stop();
});

test('GIVEN something that is not a generator, lease or allocator THEN snowkeyMetrics names it', () => {
  expect(() => snowkeyMetrics([{ nextId: () => 1n }] as never)).toThrow(
    /"sources\[0\]" must be a Snowflake, a NodeLease or a SegmentAllocator/,
  );
});

test("GIVEN core's main entry bundled THEN nothing of OpenTelemetry is in it", async () => {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [new URL('../../packages/core/src/index.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((f) => f.includes('observe/health.ts'))).toBe(true);
  expect(inputs.filter((f) => f.includes('opentelemetry') || f.includes('/otel'))).toEqual([]);
});
