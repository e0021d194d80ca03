import { randomUUID } from 'node:crypto';
import {
  defineLayout,
  LeaseExpiredError,
  LeaseFreeRefusedError,
  manualClock,
  Snowflake,
  WorkerIdLeaseError,
} from '@snowkey/core';
import { useEtcdCluster } from '@snowkey/test-harness/etcd-cluster';
import { Etcd3 } from 'etcd3';
import { describe, expect, test } from 'vitest';
import { inspectEtcdLeases, leaseEtcdNodeId } from '../src/index.js';

const etcd = useEtcdCluster();
const layout = defineLayout({
  name: 'etcd-inspect',
  timestampBits: 41,
  nodeBits: { workerId: 4 },
  sequenceBits: 12,
});
const T0 = Date.UTC(2026, 0, 1);

async function rawMark(client: Etcd3, prefix: string, nodeId: number) {
  const raw = await client.get(`${prefix}mark/${nodeId}`).string();
  return raw === null ? undefined : (JSON.parse(raw) as Record<string, number | string | null>);
}

describe.skipIf(etcd.skip)('inspecting and freeing etcd leases', () => {
  const setUp = async () => {
    const client = etcd.cluster.client();
    const prefix = `inspect/${randomUUID()}/`;
    const clock = manualClock(T0);
    const take = (holderLabel: string) =>
      leaseEtcdNodeId({
        client,
        layout,
        prefix,
        ttlMs: 2000,
        heartbeat: false,
        clock: clock.now,
        holderLabel,
      });
    return {
      client,
      prefix,
      clock,
      take,
      inspector: inspectEtcdLeases(client, { prefix, clock: clock.now }),
    };
  };

  test('GIVEN a held, a released and an expired lease THEN list shows each as etcd holds it', async () => {
    const { client, prefix, clock, take, inspector } = await setUp();
    const a = await take('pid-1@web-0');
    const b = await take('pid-2@web-1');
    const c = await take('pid-3@web-2');
    new Snowflake({ layout, lease: b, clock: clock.now }).nextIds(3);
    await b.release();
    // What expiry does: etcd drops c's lease and its holder key.
    const holderC = await client.get(`${prefix}holder/${c.nodeId}`).exec();
    await client.leaseClient.leaseRevoke({ ID: holderC.kvs[0]!.lease });

    const records = await inspector.list();
    expect(inspector.where).toBe(`etcd ${prefix}`);
    expect(records.map((r) => [r.nodeId, r.status, r.label])).toEqual([
      [0, 'held', 'pid-1@web-0'],
      [1, 'released', null],
      [2, 'expired', 'pid-3@web-2'],
    ]);
    const markA = await rawMark(client, prefix, 0);
    expect(records[0]).toMatchObject({
      holder: a.holder,
      acquiredAt: T0,
      expiresAt: markA!.expiresAt,
      ceiling: markA!.ceiling,
      highWater: markA!.highWater,
    });
    expect(records[1]!.highWater).toBe((await rawMark(client, prefix, 1))!.highWater);
    await a.release();
  });

  test('GIVEN a held lease THEN free refuses it, AND free --force evicts it: the holder stops at its next renewal and the next holder starts after its ceiling', async () => {
    const { clock, take, inspector } = await setUp();
    const held = await take('pid-7@web-7');
    const gen = new Snowflake({ layout, lease: held, clock: clock.now });
    gen.nextId();
    const refused = await inspector.free(held.nodeId).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LeaseFreeRefusedError);
    expect(refused).toMatchObject({ reason: 'held', nodeId: held.nodeId });

    const result = await inspector.free(held.nodeId, { force: true });
    expect(result).toMatchObject({ outcome: 'evicted', nextStartsAfter: held.ceiling });
    expect((await inspector.list())[0]).toMatchObject({ status: 'evicted', label: 'evicted-by-operator' });
    // The id stays taken (until the holder's ceiling), so no one else gets it yet.
    const next = await take('pid-8@web-8');
    expect(next.nodeId).not.toBe(held.nodeId);
    await expect(held.renew()).rejects.toThrow(LeaseExpiredError);
    expect(held.state).toBe('lost');
    clock.advance(1);
    expect(() => gen.nextId()).toThrow(LeaseExpiredError);
    await next.release();
  });

  test('GIVEN an expired lease THEN free records its ceiling as the high-water mark AND the next holder starts after it; a second free says it is already free', async () => {
    const { client, prefix, clock, take, inspector } = await setUp();
    const dead = await take('pid-9@web-9');
    const holder = await client.get(`${prefix}holder/${dead.nodeId}`).exec();
    await client.leaseClient.leaseRevoke({ ID: holder.kvs[0]!.lease });
    const early = await inspector.free(dead.nodeId).catch((e: unknown) => e);
    expect(early).toMatchObject({ reason: 'ceiling-ahead' });

    clock.advance(dead.ceiling - T0 + 1);
    const freed = await inspector.free(dead.nodeId);
    expect(freed).toMatchObject({ outcome: 'freed', nextStartsAfter: dead.ceiling });
    expect(await rawMark(client, prefix, dead.nodeId)).toMatchObject({
      holder: null,
      highWater: dead.ceiling,
    });
    expect(await inspector.free(dead.nodeId)).toMatchObject({ outcome: 'already-free' });
    expect(await inspector.free(9)).toMatchObject({ outcome: 'never-used' });
    const heir = await take('pid-10@web-10');
    expect(heir).toMatchObject({ nodeId: dead.nodeId, startAfter: dead.ceiling });
    await heir.release();
  });
});

test('GIVEN an etcd that does not answer THEN list rejects with a WorkerIdLeaseError naming the prefix', async () => {
  const client = new Etcd3({ hosts: 'http://127.0.0.1:1' });
  try {
    const listing = inspectEtcdLeases(client, { prefix: 'nowhere/' }).list();
    await expect(listing).rejects.toThrow(WorkerIdLeaseError);
    await expect(listing).rejects.toThrow(/could not read the leases under nowhere\/ \(etcd\)/);
  } finally {
    client.close();
  }
});
