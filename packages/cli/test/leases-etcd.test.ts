import { randomUUID } from 'node:crypto';
import { layouts, manualClock, Snowflake } from '@snowkey/core';
import { leaseEtcdNodeId } from '@snowkey/etcd';
import { useEtcdCluster } from '@snowkey/test-harness/etcd-cluster';
import { describe, expect, test } from 'vitest';
import { parseEtcdUrl } from '../src/lease-stores.js';
import { runCli } from './run-cli.js';

const etcd = useEtcdCluster();
const T0 = Date.UTC(2026, 0, 1);
const layout = layouts.default;

describe('etcd URLs of snowkey leases', () => {
  test.each([
    ['etcd://10.0.0.1:2379', ['http://10.0.0.1:2379'], undefined],
    ['etcd://a:2379,b:2380/app/leases/', ['http://a:2379', 'http://b:2380'], 'app/leases/'],
    ['etcds://[::1]:2379/', ['https://[::1]:2379'], undefined],
  ])('GIVEN %s THEN hosts %j and prefix %s', (url, hosts, prefix) => {
    expect(parseEtcdUrl(url)).toEqual({ hosts, prefix });
  });

  test.each(['etcd://', 'etcd://host', 'etcd://a:2379,,b:2379', 'etcd://a:2379?x=1'])(
    'GIVEN %s THEN the usage error shows the form of an etcd URL',
    async (url) => {
      const result = await runCli(['leases', 'list', '--url', url]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        '"--url" must be an etcd URL: etcd://host:port[,host:port...][/key-prefix/]',
      );
    },
  );
});

describe.skipIf(etcd.skip)('snowkey leases list|show|free against etcd', () => {
  test('GIVEN leases in etcd THEN list, show and free read and repair them through an etcd:// URL', async () => {
    const client = etcd.cluster.client();
    const prefix = `cli/${randomUUID()}/`;
    const url = `etcd://${etcd.cluster.hosts.map((h) => h.replace('http://', '')).join(',')}/${prefix}`;
    const clock = manualClock(T0);
    const timing = { ttlMs: 10_000, heartbeat: false, clock: clock.now } as const;
    const held = await leaseEtcdNodeId({ client, layout, prefix, holderLabel: 'pid-5@game-5', ...timing });
    const done = await leaseEtcdNodeId({ client, layout, prefix, holderLabel: 'pid-6@game-6', ...timing });
    new Snowflake({ layout, lease: done, clock: clock.now }).nextIds(2);
    await done.release();
    const now = { clock: () => clock.now() };

    const list = await runCli(['leases', 'list', '--url', url, '--json'], now);
    expect(list.code, list.stderr).toBe(0);
    const report = JSON.parse(list.stdout);
    expect(report.store).toBe(`etcd ${prefix}`);
    expect(report.nodeIds).toEqual({ total: 1024, free: 1023, layout: layout.name });
    expect(report.leases).toEqual([
      expect.objectContaining({ nodeId: 0, status: 'held', holder: held.holder, label: 'pid-5@game-5' }),
      expect.objectContaining({ nodeId: 1, status: 'released', holder: null }),
    ]);

    const show = await runCli(['leases', 'show', '0', '--url', url], now);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('pid-5@game-5');

    const refused = await runCli(['leases', 'free', '0', '--url', url], now);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^refused: node id 0 is held by pid-5@game-5: its etcd lease is alive/);

    const evicted = await runCli(['leases', 'free', '0', '--force', '--url', url, '--json'], now);
    expect(evicted.code, evicted.stderr).toBe(0);
    expect(JSON.parse(evicted.stdout)).toMatchObject({
      nodeId: 0,
      outcome: 'evicted',
      nextStartsAfter: new Date(held.ceiling).toISOString(),
    });
    await expect(held.renew()).rejects.toThrow(/taken by another holder/);
  });
});
