import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Get, Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { decode, type IdGenerator, layouts } from '@snowkey/core';
import { leaseEtcdNodeId } from '@snowkey/etcd';
import { useEtcdCluster } from '@snowkey/test-harness/etcd-cluster';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SNOWKEY_GENERATOR, SnowkeyModule, SnowkeyService } from '../src/index.js';

// SnowkeyModule on a lease from etcd, through a LeaseTaker: the lease is held in etcd (read raw)
// while the application listens, its ids carry the leased node id, and app.close() releases it.

const etcd = useEtcdCluster();
const prefix = `nest/${randomUUID()}/`;

@Controller('ids')
class IdsController {
  constructor(@Inject(SNOWKEY_GENERATOR) private readonly ids: IdGenerator) {}
  @Get()
  next() {
    return { id: this.ids.nextId() };
  }
}

let app: Awaited<ReturnType<typeof NestFactory.create>> | undefined;
let url = '';

beforeAll(async () => {
  if (etcd.skip) return;
  const client = etcd.cluster.client();
  @Module({
    imports: [SnowkeyModule.forRoot({ lease: ({ layout }) => leaseEtcdNodeId({ client, layout, prefix }) })],
    controllers: [IdsController],
  })
  class AppModule {}
  app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  url = await app.getUrl();
});
afterAll(async () => {
  await app?.close();
});

test.skipIf(etcd.skip)(
  'GIVEN the application listens THEN its node id is held in etcd, its ids carry it, and app.close() releases it',
  async () => {
    const lease = app!.get(SnowkeyService).lease!;
    const raw = etcd.cluster.client();
    const holderKey = `${prefix}holder/${lease.nodeId}`;
    expect(await raw.get(holderKey).string()).not.toBeNull();
    const body = (await (await fetch(`${url}/ids`)).json()) as { id: string };
    expect(decode(BigInt(body.id), { layout: layouts.default }).workerId).toBe(lease.nodeId);
    await app!.close();
    app = undefined;
    expect(await raw.get(holderKey).string()).toBeNull();
    raw.close();
  },
);
