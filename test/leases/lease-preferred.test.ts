import { InvalidArgumentError, leaseNodeId, manualClock, type NodeLease, Snowflake } from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { leaseTestLayout } from './fixtures/lease-layout.js';
import { type OpenedSqlClient, openSqlClient } from './open-sql-client.js';

const T0 = Date.UTC(2026, 0, 1);
const layout = leaseTestLayout(3);
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;

describeEachDialect('preferred node id (a pod index)', (ctx) => {
  const opened: OpenedSqlClient[] = [];
  const leases: NodeLease[] = [];
  afterEach(async () => {
    for (const l of leases.splice(0)) await l.release().catch(() => {});
    for (const o of opened.splice(0)) await o.close().catch(() => {});
  });
  const lease = async (table: string, clock: () => number, preferredNodeId?: number) => {
    const o = await openSqlClient(ctx.db);
    opened.push(o);
    const l = await leaseNodeId({ client: o.client, layout, table, clock, preferredNodeId, ...timing });
    leases.push(l);
    return l;
  };
  const holders = async (table: string) =>
    Object.fromEntries(
      (
        await ctx.db.query<{ node_id: unknown; holder: string | null }>(
          `SELECT node_id, holder FROM ${table} WHERE holder IS NOT NULL ORDER BY node_id`,
        )
      ).map((r) => [Number(r.node_id), r.holder]),
    );

  test('GIVEN two pods that claim the same index (a force-deleted pod and its replacement) THEN the first gets it AND the second another id, never the same', async () => {
    const table = 'preferred_leases';
    const clock = manualClock(T0);
    const first = await lease(table, clock.now, 5);
    const second = await lease(table, clock.now, 5);
    const third = await lease(table, clock.now);
    expect([first.nodeId, second.nodeId, third.nodeId]).toEqual([5, 0, 1]);
    expect(await holders(table)).toEqual({ 0: second.holder, 1: third.holder, 5: first.holder });
    expect(first.stats()).toMatchObject({ acquiredAt: T0, acquireMs: 0 });
    expect(first.holder).toMatch(/^pid-\d+(@.+)?\/2026-01-01T00:00:00\.000Z\/[0-9a-f-]{36}$/);
  });

  test('GIVEN the preferred id was released THEN it is taken again, after its high-water mark', async () => {
    const table = 'preferred_released';
    const clock = manualClock(T0);
    const first = await lease(table, clock.now, 6);
    new Snowflake({ layout, lease: first, clock: clock.now }).nextId();
    await first.release();
    clock.advance(1);
    const again = await lease(table, clock.now, 6);
    expect([again.nodeId, again.startAfter]).toEqual([6, T0]);
  });

  test('GIVEN a preferred id outside the layout THEN the error names it and the range, and nothing is written', async () => {
    const table = 'preferred_outside';
    const o = await openSqlClient(ctx.db);
    opened.push(o);
    const attempt = leaseNodeId({ client: o.client, layout, table, preferredNodeId: 8, ...timing });
    await expect(attempt).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(attempt).rejects.toThrow(
      '"preferredNodeId" must be a node id of layout "lease-test" (an integer in 0..7), or undefined (received 8)',
    );
    await expect(ctx.db.query(`SELECT node_id FROM ${table}`)).rejects.toThrow();
  });
});
