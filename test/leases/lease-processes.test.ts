import { decode } from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { leaseTestLayout } from './fixtures/lease-layout.js';
import { type LeaseChild, startLeaseChild } from './run-lease-child.js';

const PROCESSES = 8;
const IDS_PER_PROCESS = 100_000;

describeEachDialect('node-id leases across processes', (ctx) => {
  const running: LeaseChild[] = [];
  const start = (settings: Record<string, string | number>) => {
    const child = startLeaseChild(ctx.db, settings);
    running.push(child);
    return child;
  };
  afterEach(async () => {
    for (const c of running.splice(0)) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await c.exited;
    }
  });

  const freshTables = async () => {
    await ctx.db.query('DROP TABLE IF EXISTS lease_ids');
    await ctx.db.query('DROP TABLE IF EXISTS snowkey_node_leases');
    await ctx.db.query('CREATE TABLE lease_ids (id BIGINT NOT NULL PRIMARY KEY)');
  };

  test(`GIVEN ${PROCESSES} processes leasing at once THEN they get distinct node ids AND their ${PROCESSES * IDS_PER_PROCESS} ids insert into one primary key without a conflict`, async () => {
    await freshTables();
    const children = Array.from({ length: PROCESSES }, () =>
      start({ LEASE_COUNT: IDS_PER_PROCESS, LEASE_WAIT_FOR_GO: 1 }),
    );
    // All eight hold their leases at the same time before any generates (a finished process releases
    // its id, which a late starter could then reuse).
    await Promise.all(children.map((c) => c.waitFor((e) => e.event === 'leased')));
    for (const c of children) c.go();
    const ends = await Promise.all(children.map((c) => c.exited));
    for (const end of ends) expect(end, end.stderr).toMatchObject({ code: 0 });

    const nodeIds = children.map((c) => c.events.find((e) => e.event === 'done')?.nodeId);
    expect(new Set(nodeIds).size).toBe(PROCESSES);
    expect([...nodeIds].sort((a, b) => Number(a) - Number(b))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const [{ n }] = (await ctx.db.query<{ n: string }>('SELECT COUNT(*) AS n FROM lease_ids')) as [
      { n: string },
    ];
    expect(n).toBe(String(PROCESSES * IDS_PER_PROCESS));
    // Every lease was released with its high-water mark, and none is held any more.
    const leases = await ctx.db.query<{ node_id: number; holder: string | null; high_water: string }>(
      'SELECT node_id, holder, high_water FROM snowkey_node_leases ORDER BY node_id',
    );
    expect(leases).toHaveLength(PROCESSES);
    const layout = leaseTestLayout(10);
    for (const c of children) {
      const done = c.events.find((e) => e.event === 'done')!;
      const row = leases.find((r) => Number(r.node_id) === done.nodeId)!;
      expect(row.holder).toBeNull();
      expect(Number(row.high_water)).toBeGreaterThanOrEqual(decode(String(done.maxId), { layout }).timestamp);
    }
  });

  test('GIVEN a process killed with SIGKILL THEN a process restarted at once gets a node id AND whoever takes over the dead id starts after every id the dead process used', async () => {
    // Two node ids only, so some process must take over the dead process's id once it expires.
    const layout = leaseTestLayout(1);
    await freshTables();
    const settings = { LEASE_NODE_BITS: 1, LEASE_TTL_MS: 1500 };

    const first = start({ ...settings, LEASE_MODE: 'loop' });
    await first.waitFor((e) => e.event === 'inserted' && Number(e.total) >= 6000);
    first.process.kill('SIGKILL');
    await first.exited;
    const dead = first.events.find((e) => e.event === 'leased')!.nodeId;

    // Restarted at once, no retries: the other id is free, or the dead id already expired.
    const second = start({ ...settings, LEASE_MODE: 'loop' });
    const secondLease = await second.waitFor((e) => e.event === 'leased');
    const secondIds = await second.waitFor((e) => e.event === 'inserted');
    // Both ids are held now; this one retries until one is free (the dead id, if second did not take it).
    const third = start({ ...settings, LEASE_MODE: 'batch', LEASE_COUNT: 20_000, LEASE_RETRY_MS: 20_000 });
    const thirdEnd = await third.exited;
    expect(thirdEnd, thirdEnd.stderr).toMatchObject({ code: 0 });
    const thirdLease = third.events.find((e) => e.event === 'leased')!;
    const thirdDone = third.events.find((e) => e.event === 'done')!;
    expect(new Set([secondLease.nodeId, thirdLease.nodeId])).toEqual(new Set([0, 1]));

    const [heir, heirLease, heirFirst] =
      secondLease.nodeId === dead
        ? (['second', secondLease, secondIds.firstId] as const)
        : (['third', thirdLease, thirdDone.firstId] as const);
    // The oracle: raw reads of every id on the dead process's node id, decoded. The dead process's
    // ids are those below its heir's first id; the primary key already proved that none repeats.
    const rows = await ctx.db.query<{ id: string }>('SELECT id FROM lease_ids');
    const onNode = rows.map((r) => BigInt(r.id)).filter((id) => decode(id, { layout }).workerId === dead);
    const heirMin = BigInt(String(heirFirst));
    const before = onNode.filter((id) => id < heirMin);
    const after = onNode.filter((id) => id >= heirMin);
    expect(before.length).toBeGreaterThanOrEqual(6000);
    if (heir === 'third') expect(after).toHaveLength(20_000);
    else expect(after.length).toBeGreaterThan(0);
    const deadLast = before.reduce((m, id) => Math.max(m, decode(id, { layout }).timestamp), 0);
    const heirFirstTs = after.reduce((m, id) => Math.min(m, decode(id, { layout }).timestamp), Infinity);
    expect(Number(heirLease.startAfter)).toBeGreaterThanOrEqual(deadLast);
    expect(heirFirstTs).toBeGreaterThan(Number(heirLease.startAfter));
  });

  test('GIVEN releaseOnSignals AND a SIGTERM THEN the process frees its node ids (two leases, one slow) with the high-water mark AND still dies by the signal', async () => {
    const layout = leaseTestLayout(10);
    await freshTables();
    const child = start({ LEASE_MODE: 'loop', LEASE_RELEASE_ON_SIGNALS: 1, LEASE_SLOW_SECOND: 1 });
    const leased = await child.waitFor((e) => e.event === 'leased');
    await child.waitFor((e) => e.event === 'inserted');
    child.process.kill('SIGTERM');
    const end = await child.exited;
    expect(end, end.stderr).toMatchObject({ signal: 'SIGTERM' });

    const [lease] = await ctx.db.query<{ holder: string | null; expires_at: string; high_water: string }>(
      'SELECT holder, expires_at, high_water FROM snowkey_node_leases WHERE node_id = ?',
      [leased.nodeId],
    );
    expect(lease).toMatchObject({ holder: null, expires_at: '0' });
    const held = await ctx.db.query('SELECT node_id FROM snowkey_node_leases WHERE holder IS NOT NULL');
    expect(held, `second lease was node id ${leased.secondNodeId}`).toEqual([]);
    const rows = await ctx.db.query<{ id: string }>('SELECT id FROM lease_ids');
    const lastUsed = rows.reduce((m, r) => Math.max(m, decode(r.id, { layout }).timestamp), 0);
    expect(Number(lease!.high_water)).toBeGreaterThanOrEqual(lastUsed);
  });

  test('GIVEN a SIGTERM while the database hangs on one release THEN the process still dies by the signal after signalReleaseTimeoutMs, AND the other lease is freed', async () => {
    await freshTables();
    const child = start({
      LEASE_MODE: 'loop',
      LEASE_RELEASE_ON_SIGNALS: 1,
      LEASE_HANG_SECOND: 1,
      LEASE_SIGNAL_TIMEOUT_MS: 300,
    });
    const leased = await child.waitFor((e) => e.event === 'leased');
    await child.waitFor((e) => e.event === 'inserted');
    child.process.kill('SIGTERM');
    const end = await child.exited;
    expect(end, end.stderr).toMatchObject({ signal: 'SIGTERM' });
    const rows = await ctx.db.query<{ node_id: number | string; holder: string | null }>(
      'SELECT node_id, holder FROM snowkey_node_leases ORDER BY node_id',
    );
    const holderOf = (id: unknown) => rows.find((r) => Number(r.node_id) === Number(id))?.holder;
    expect(holderOf(leased.nodeId)).toBeNull(); // released
    expect(holderOf(leased.secondNodeId)).not.toBeNull(); // its release hung; it frees itself at expiry
  });
});
