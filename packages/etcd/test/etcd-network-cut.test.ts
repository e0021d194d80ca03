import { randomUUID } from 'node:crypto';
import {
  defineLayout,
  LeaseExpiredError,
  monotonicClock,
  type NodeLease,
  Snowflake,
  snowkeyHealth,
  WorkerIdLeaseError,
} from '@snowkey/core';
import { snowkeyMetrics } from '@snowkey/core/otel';
import { useEtcdCluster } from '@snowkey/test-harness/etcd-cluster';
import { countOf, measured, metricReader } from '@snowkey/test-harness/metric-reader';
import { startTcpProxy, type TcpProxy } from '@snowkey/test-harness/tcp-proxy';
import { Etcd3 } from 'etcd3';
import { afterAll, describe, expect, test } from 'vitest';
import { leaseEtcdNodeId } from '../src/index.js';

const etcd = useEtcdCluster();
/** Two node ids: with the other one held, a second process can only take the cut-off process's id. */
const layout = defineLayout({
  name: 'etcd-cut',
  timestampBits: 41,
  nodeBits: { workerId: 1 },
  sequenceBits: 12,
});
const TTL_MS = 2000;
/** A wide margin, so that a busy machine's late timer still sees the refusal before etcd's expiry. */
const MARGIN_MS = 500;

describe.skipIf(etcd.skip)('a process cut off from etcd by the network', () => {
  const proxies: TcpProxy[] = [];
  const clients: Etcd3[] = [];
  const otel = metricReader();
  afterAll(async () => {
    await otel.shutdown();
    for (const c of clients) c.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  test('GIVEN a TCP proxy between one process and every member, cut for longer than the TTL THEN its generator refuses with LeaseExpiredError before another process can take its node id, AND the other starts after its last id', async () => {
    const cluster = etcd.cluster;
    const prefix = `cut/${randomUUID()}/`;
    for (const m of cluster.members) {
      const url = new URL(m.clientUrl);
      proxies.push(await startTcpProxy({ hostname: url.hostname, port: url.port }));
    }
    const cutOffClient = new Etcd3({ hosts: proxies.map((p) => `http://127.0.0.1:${p.port}`) });
    const direct = cluster.client();
    clients.push(cutOffClient);
    const options = { layout, prefix, ttlMs: TTL_MS, expiryMarginMs: MARGIN_MS };

    const cutOff = await leaseEtcdNodeId({ client: cutOffClient, ...options });
    const other = await leaseEtcdNodeId({ client: direct, ...options });
    expect([cutOff.nodeId, other.nodeId]).toEqual([0, 1]);
    await expect(leaseEtcdNodeId({ client: direct, ...options })).rejects.toThrow(WorkerIdLeaseError);

    // The cut-off process issues ids on a timer until its generator refuses.
    const gen = new Snowflake({ layout, lease: cutOff });
    const stopMetrics = snowkeyMetrics([gen, cutOff], { meter: otel.meter });
    const genAttrs = { 'snowkey.node.id': cutOff.nodeId, 'snowkey.layout': layout.name };
    const leaseAttrs = { 'snowkey.node.id': cutOff.nodeId, 'snowkey.lease.table': `etcd ${prefix}` };
    const issued: bigint[] = [];
    let refusal: { error: unknown; at: number } | undefined;
    let issuedAfterRefusal = 0;
    let firstIssued!: () => void;
    const issuing = new Promise<void>((resolve) => {
      firstIssued = resolve;
    });
    const timer = setInterval(() => {
      try {
        issued.push(gen.nextId());
        firstIssued();
        if (refusal) issuedAfterRefusal++;
      } catch (error) {
        refusal ??= { error, at: monotonicClock() };
      }
    }, 2);
    const watcher = await direct.watch().key(`${prefix}holder/${cutOff.nodeId}`).create();
    const expired = new Promise<number>((resolve) => watcher.on('delete', () => resolve(monotonicClock())));
    await issuing;

    for (const p of proxies) p.cut();
    // etcd deletes the holder key when the etcd lease expires, unrenewed; then the id can be taken.
    const expiredAt = await expired;
    let heir: NodeLease;
    try {
      heir = await leaseEtcdNodeId({ client: direct, ...options });
    } finally {
      clearInterval(timer);
      await watcher.cancel();
    }
    const heirFirst = new Snowflake({ layout, lease: heir }).nextId();

    expect(refusal?.error).toBeInstanceOf(LeaseExpiredError);
    expect(refusal!.at).toBeLessThan(expiredAt);
    expect(refusal!.at).toBeLessThan(heir.stats().acquiredAt);
    expect(issuedAfterRefusal).toBe(0);
    expect(heir.nodeId).toBe(cutOff.nodeId);
    const lastTs = Math.max(...issued.map((id) => gen.decode(id).timestamp));
    expect(heir.startAfter).toBeGreaterThanOrEqual(lastTs);
    let lastIssued = 0n;
    for (const id of issued) if (id > lastIssued) lastIssued = id;
    expect(heirFirst).toBeGreaterThan(lastIssued);
    expect(cutOff.state).toBe('held'); // it has not heard yet; its fence stopped it anyway
    // Its readiness probe fails (its fence refuses), while it stays live: it may recover.
    const fenced = snowkeyHealth({ generator: gen, lease: cutOff });
    expect(fenced).toMatchObject({ status: 'fail', ready: false, live: true });
    expect(fenced.lease).toMatchObject({ state: 'held', fenced: true, table: `etcd ${prefix}` });
    expect(fenced.lease!.renewalFailures).toBeGreaterThan(0);
    // And its metrics say why: failed renewals, then fence trips; nothing issued since.
    let m = await otel.collect();
    expect(measured(m, 'snowkey.lease.held', leaseAttrs)).toBe(1);
    expect(measured(m, 'snowkey.fence.trips', genAttrs)).toBeGreaterThan(0);
    expect(measured(m, 'snowkey.ids.issued', genAttrs)).toBe(issued.length);
    expect(
      countOf(m, 'snowkey.lease.renewal.duration', { ...leaseAttrs, 'error.type': 'WorkerIdLeaseError' }),
    ).toBeGreaterThan(0);

    // Once the network is back, its next renewal finds the id taken, and it stays stopped.
    for (const p of proxies) p.restore();
    await expect(cutOff.renew()).rejects.toThrow(LeaseExpiredError);
    expect(cutOff.state).toBe('lost');
    expect(snowkeyHealth({ generator: gen, lease: cutOff })).toMatchObject({ ready: false, live: false });
    m = await otel.collect();
    expect(measured(m, 'snowkey.lease.held', leaseAttrs)).toBe(0);
    expect(
      countOf(m, 'snowkey.lease.renewal.duration', { ...leaseAttrs, 'error.type': 'LeaseExpiredError' }),
    ).toBe(1);
    stopMetrics();
    await Promise.all([heir.release(), other.release()]);
  });
});
