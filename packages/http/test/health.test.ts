import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import {
  defineLayout,
  leaseNodeId,
  manualClock,
  type NodeLease,
  Snowflake,
  type SqlClient,
  snowkeyHealth,
  sqliteSqlClient,
} from '@snowkey/core';
import { healthResponse, healthStatus } from '@snowkey/http';
import Database from 'better-sqlite3';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen } from './support/listen.js';
import type { RunningServer } from './support/round-trip.js';

// The Kubernetes probe recipes of the README, over HTTP: a generator on a real lease (SQLite),
// whose database stops answering, then whose id is taken by another process.
const T0 = Date.UTC(2026, 0, 1);
const layout = defineLayout({
  name: 'probe-test',
  timestampBits: 41,
  nodeBits: { workerId: 4 },
  sequenceBits: 12,
});
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;

const sqlite = new Database(':memory:');
const real = sqliteSqlClient(sqlite);
const outage = { down: false };
const client: SqlClient = {
  dialect: 'sqlite',
  query: (sql, params) =>
    outage.down ? Promise.reject(new Error('disk I/O error')) : real.query(sql, params),
  execute: (sql, params) =>
    outage.down ? Promise.reject(new Error('disk I/O error')) : real.execute(sql, params),
};
const clock = manualClock(T0);
let lease: NodeLease;
let gen: Snowflake<'workerId'>;
const report = () => snowkeyHealth({ generator: gen, lease });

async function startExpress(): Promise<RunningServer> {
  const app = express();
  app.get('/healthz/:probe', (req, res) => {
    const h = report();
    res.status(healthStatus(h, req.params.probe === 'live' ? 'live' : 'ready')).json(h);
  });
  return listen(app.listen(0, '127.0.0.1') as Server);
}

async function startFastify(): Promise<RunningServer> {
  const app = Fastify();
  app.get<{ Params: { probe: string } }>('/healthz/:probe', (req, reply) => {
    const h = report();
    return reply.code(healthStatus(h, req.params.probe === 'live' ? 'live' : 'ready')).send(h);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

async function startHono(): Promise<RunningServer> {
  const app = new Hono();
  app.get('/healthz/ready', () => healthResponse(report(), 'ready'));
  app.get('/healthz/live', () => healthResponse(report(), 'live'));
  return listen(createAdaptorServer({ fetch: app.fetch }) as Server);
}

const servers: [string, RunningServer][] = [];
beforeAll(async () => {
  lease = await leaseNodeId({ client, layout, clock: clock.now, ...timing });
  gen = new Snowflake({ layout, lease, clock: clock.now });
  servers.push(
    ['Express', await startExpress()],
    ['Fastify', await startFastify()],
    ['Hono', await startHono()],
  );
});
afterAll(async () => {
  for (const [, s] of servers) await s.close();
  sqlite.close();
});

async function probes() {
  const out: Record<string, [number, number, string]> = {};
  for (const [name, s] of servers) {
    const ready = await fetch(`${s.url}/healthz/ready`);
    const live = await fetch(`${s.url}/healthz/live`);
    const body = (await ready.json()) as { status: string; lease: { holder: string } };
    await live.arrayBuffer();
    expect(body.lease.holder).toBe(lease.holder);
    out[name] = [ready.status, live.status, body.status];
  }
  return out;
}

describe('health probes over HTTP (Express, Fastify, Hono)', () => {
  test('GIVEN a held lease, then failing renewals, then the fence, then the loss THEN every framework answers the same statuses', async () => {
    gen.nextIds(3);
    const [row] = sqlite
      .prepare('SELECT holder FROM snowkey_node_leases WHERE node_id = ?')
      .all(lease.nodeId) as {
      holder: string;
    }[];
    expect(row!.holder).toBe(lease.holder);
    const all = (ready: number, live: number, status: string) => ({
      Express: [ready, live, status],
      Fastify: [ready, live, status],
      Hono: [ready, live, status],
    });
    expect(await probes()).toEqual(all(200, 200, 'pass'));

    outage.down = true;
    clock.advance(3_000);
    await expect(lease.renew()).rejects.toThrow(/could not renew/);
    expect(await probes()).toEqual(all(200, 200, 'warn'));

    clock.set(lease.usableUntil + 1);
    expect(await probes()).toEqual(all(503, 200, 'fail'));

    clock.advance(2_000); // expired: another process takes the id
    outage.down = false;
    const heir = await leaseNodeId({ client, layout, clock: clock.now, ...timing });
    expect(heir.nodeId).toBe(lease.nodeId);
    await expect(lease.renew()).rejects.toThrow(/taken by another holder/);
    expect(await probes()).toEqual(all(503, 503, 'fail'));
    await heir.release();
  });
});
