import 'reflect-metadata';
import { Controller, Get, Inject, Module } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { manualClock } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SnowkeyHealthIndicator } from '../src/terminus.js';
import { PLAYERS_DDL, type RunningApp, startPlayersApp } from './support/players-app.js';

// @nestjs/terminus's HealthCheckService with SnowkeyHealthIndicator in a real application over
// HTTP. The lease's clock is injected and its heartbeat off, so the test moves time past the
// point where the fence stops ids, without sleeping.

@Controller('health')
class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(SnowkeyHealthIndicator) private readonly snowkey: SnowkeyHealthIndicator,
  ) {}

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.snowkey.isHealthy('snowkey')]);
  }

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([() => this.snowkey.isHealthy('snowkey', 'live')]);
  }
}

@Module({ imports: [TerminusModule], controllers: [HealthController], providers: [SnowkeyHealthIndicator] })
class HealthModule {}

interface TerminusBody {
  status: string;
  info?: Record<string, { status: string; lease: { nodeId: number; state: string; fenced: boolean } }>;
  error?: Record<string, { status: string; problems: string[]; lease: { fenced: boolean } }>;
}

describeEachDialect('SnowkeyHealthIndicator with @nestjs/terminus', (ctx) => {
  const clock = manualClock(Date.UTC(2026, 10, 28, 12));
  let app: RunningApp | undefined;
  const get = async (path: string) => {
    const res = await fetch(`${app!.url}${path}`);
    return { status: res.status, body: (await res.json()) as TerminusBody };
  };

  beforeAll(async () => {
    await ctx.db.query(PLAYERS_DDL);
    app = await startPlayersApp(ctx.db, {
      lease: { heartbeat: false, ttlMs: 30_000 },
      clock: clock.now,
      imports: [HealthModule],
    });
  });
  afterAll(() => app?.close());

  test('GIVEN a held lease THEN both probes are up with the lease in the details', async () => {
    const lease = app!.snowkey.lease!;
    for (const probe of ['ready', 'live']) {
      const { status, body } = await get(`/health/${probe}`);
      expect(status).toBe(200);
      expect(body.status).toBe('ok');
      expect(body.info!.snowkey!.status).toBe('up');
      expect(body.info!.snowkey!.lease).toMatchObject({ nodeId: lease.nodeId, state: 'held', fenced: false });
    }
  });

  test('GIVEN no renewal past the fence THEN ready is down with 503 and the problem, live stays up', async () => {
    clock.advance(30_000);
    const ready = await get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error!.snowkey!.status).toBe('down');
    expect(ready.body.error!.snowkey!.lease.fenced).toBe(true);
    expect(ready.body.error!.snowkey!.problems.join(' ')).toContain('fenced');
    const live = await get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body.info!.snowkey!.status).toBe('up');
  });

  test('GIVEN a renewal THEN ready is up again', async () => {
    await app!.snowkey.lease!.renew();
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.info!.snowkey!.status).toBe('up');
  });

  test('GIVEN a renewal that fails while ids still flow THEN ready is degraded (200) with the error; up once renewals succeed', async () => {
    // The lease table out of reach: a real failure of the database statement, then put back.
    await ctx.db.query('ALTER TABLE snowkey_node_leases RENAME TO snowkey_node_leases_away');
    try {
      await expect(app!.snowkey.lease!.renew()).rejects.toMatchObject({ name: 'WorkerIdLeaseError' });
    } finally {
      await ctx.db.query('ALTER TABLE snowkey_node_leases_away RENAME TO snowkey_node_leases');
    }
    const degraded = await get('/health/ready');
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ info: { snowkey: { status: 'degraded' } } });
    expect(JSON.stringify(degraded.body)).toContain('renewals are failing');
    await app!.snowkey.lease!.renew();
    const up = await get('/health/ready');
    expect(up.body).toMatchObject({ status: 'ok', info: { snowkey: { status: 'up' } } });
  });
});
