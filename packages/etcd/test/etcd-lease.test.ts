import { randomUUID } from 'node:crypto';
import {
  defineLayout,
  InvalidArgumentError,
  LeaseExpiredError,
  manualClock,
  Snowflake,
  WorkerIdLeaseError,
} from '@snowkey/core';
import { useEtcdCluster } from '@snowkey/test-harness/etcd-cluster';
import type { Etcd3 } from 'etcd3';
import { describe, expect, test } from 'vitest';
import { leaseEtcdNodeId } from '../src/index.js';

const etcd = useEtcdCluster();
const layout = defineLayout({
  name: 'etcd-test',
  timestampBits: 41,
  nodeBits: { workerId: 1 },
  sequenceBits: 12,
});
const T0 = Date.UTC(2026, 0, 1);

/** A fresh key prefix per test, so nothing depends on another test's keys. */
const freshPrefix = () => `test/${randomUUID()}/`;

/** The raw keys under `prefix`: the oracle, read without the package. */
async function rawKeys(client: Etcd3, prefix: string) {
  const res = await client.getAll().prefix(prefix).exec();
  return new Map(res.kvs.map((kv) => [kv.key.toString().slice(prefix.length), kv]));
}

async function rawMark(client: Etcd3, prefix: string, nodeId: number) {
  const raw = await client.get(`${prefix}mark/${nodeId}`).string();
  return raw === null ? undefined : (JSON.parse(raw) as Record<string, number | string | null>);
}

describe.skipIf(etcd.skip)('node-id leases on a 3-member etcd cluster', () => {
  const common = (clock: ReturnType<typeof manualClock>, prefix: string) => ({
    layout,
    prefix,
    ttlMs: 2000,
    heartbeat: false,
    clock: clock.now,
  });

  test('GIVEN two processes leasing THEN they hold node ids 0 and 1, each holder key bound to an etcd lease, AND a third is refused while both are held', async () => {
    const client = etcd.cluster.client();
    const prefix = freshPrefix();
    const clock = manualClock(T0);
    const a = await leaseEtcdNodeId({ client, ...common(clock, prefix) });
    const b = await leaseEtcdNodeId({ client, ...common(clock, prefix) });
    expect([a.nodeId, b.nodeId]).toEqual([0, 1]);

    const keys = await rawKeys(client, prefix);
    expect([...keys.keys()].sort()).toEqual(['holder/0', 'holder/1', 'mark/0', 'mark/1']);
    expect(keys.get('holder/0')!.value.toString()).toBe(a.holder);
    const leaseId = keys.get('holder/0')!.lease;
    expect(leaseId).not.toBe('0');
    expect(keys.get('mark/0')!.lease).toBe('0'); // the mark outlives the holder
    const ttl = await client.leaseClient.leaseTimeToLive({ ID: leaseId, keys: false });
    expect(Number(ttl.grantedTTL)).toBeGreaterThanOrEqual(2);
    expect(await rawMark(client, prefix, 0)).toMatchObject({
      holder: a.holder,
      ceiling: T0 + 2000,
      highWater: 0,
      expiresAt: T0 + 2000,
    });

    const refused = await leaseEtcdNodeId({ client, ...common(clock, prefix) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkerIdLeaseError);
    expect((refused as WorkerIdLeaseError).message).toMatch(/every node id 0\.\.1 .* is held in etcd/);
    await Promise.all([a.release(), b.release()]);
  });

  test('GIVEN ids issued and a renewal THEN the mark in etcd carries the new ceiling and the high-water mark AND a release frees the id for a holder that starts after it', async () => {
    const client = etcd.cluster.client();
    const prefix = freshPrefix();
    const clock = manualClock(T0);
    const lease = await leaseEtcdNodeId({ client, ...common(clock, prefix) });
    const gen = new Snowflake({ layout, lease, clock: clock.now });
    clock.advance(5);
    gen.nextIds(10);
    clock.advance(600);
    const last = gen.nextId();
    await lease.renew();
    const lastTs = gen.decode(last).timestamp;
    expect(lastTs).toBe(T0 + 605);
    expect(await rawMark(client, prefix, lease.nodeId)).toMatchObject({
      holder: lease.holder,
      ceiling: T0 + 605 + 2000,
      expiresAt: T0 + 605 + 2000,
      highWater: lastTs,
    });
    expect(lease.ceiling).toBe(T0 + 2605);

    const holderKey = (await rawKeys(client, prefix)).get(`holder/${lease.nodeId}`)!;
    await lease.release();
    expect(() => gen.nextId()).not.toThrow(); // the rest of the time unit stays below the high-water mark
    clock.advance(1);
    expect(() => gen.nextId()).toThrow(LeaseExpiredError);
    const keys = await rawKeys(client, prefix);
    expect(keys.has(`holder/${lease.nodeId}`)).toBe(false);
    expect(await rawMark(client, prefix, lease.nodeId)).toMatchObject({
      holder: null,
      highWater: lastTs,
      expiresAt: 0,
    });
    // The etcd lease was revoked, not left to expire.
    const ttl = await client.leaseClient.leaseTimeToLive({ ID: holderKey.lease, keys: false });
    expect(Number(ttl.TTL)).toBe(-1);

    const next = await leaseEtcdNodeId({ client, ...common(clock, prefix) });
    expect(next.nodeId).toBe(lease.nodeId);
    expect(next.startAfter).toBe(lastTs);
    await next.release();
  });

  test('GIVEN a holder whose etcd lease is gone (it stopped renewing) THEN the next holder starts after its ceiling, AND its own renewal finds the lease lost and its generator stops', async () => {
    const client = etcd.cluster.client();
    const prefix = freshPrefix();
    const clock = manualClock(T0);
    const dead = await leaseEtcdNodeId({ client, ...common(clock, prefix) });
    const gen = new Snowflake({ layout, lease: dead, clock: clock.now });
    clock.advance(1);
    gen.nextId();
    const ceiling = dead.ceiling;
    // What expiry does, without waiting for it: etcd drops the lease and the keys bound to it.
    const holderKey = (await rawKeys(client, prefix)).get('holder/0')!;
    await client.leaseClient.leaseRevoke({ ID: holderKey.lease });

    const heir = await leaseEtcdNodeId({ client, ...common(clock, prefix) });
    expect(heir.nodeId).toBe(0);
    expect(heir.startAfter).toBe(ceiling);
    const renewal = await dead.renew().catch((e: unknown) => e);
    expect(renewal).toBeInstanceOf(LeaseExpiredError);
    expect(dead.state).toBe('lost');
    clock.advance(1);
    expect(() => gen.nextId()).toThrow(LeaseExpiredError);
    await heir.release();
  });

  test.each([
    ['ttlMs', { ttlMs: 1500 }, /"ttlMs" must be a whole number of seconds in ms/],
    ['ttlMs', { ttlMs: 500 }, /"ttlMs" must be a whole number of seconds in ms/],
    ['client', { client: {} }, /"client" must be an Etcd3 client/],
    ['prefix', { prefix: '' }, /"prefix" must be a non-empty key prefix/],
    ['callTimeoutMs', { callTimeoutMs: 0 }, /"callTimeoutMs" must be a positive integer/],
  ])('GIVEN a bad %s THEN an InvalidArgumentError names it', async (_name, bad, message) => {
    const client = etcd.cluster.client();
    const attempt = leaseEtcdNodeId({ client, layout, ...bad } as Parameters<typeof leaseEtcdNodeId>[0]);
    await expect(attempt).rejects.toThrow(InvalidArgumentError);
    await expect(attempt).rejects.toThrow(message);
  });
});
