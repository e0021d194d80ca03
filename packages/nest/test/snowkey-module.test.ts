import 'reflect-metadata';
import { decode, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PLAYERS_DDL, type RunningApp, startPlayersApp } from './support/players-app.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describeEachDialect('SnowkeyModule in a Nest application over HTTP', (ctx) => {
  let app: RunningApp | undefined;
  let other: RunningApp | undefined;
  const url = (path: string) => `${app!.url}${path}`;
  // node_id is an INT column: a number on PostgreSQL and MySQL, a string on SQLite.
  const leaseRows = async () =>
    (
      await ctx.db.query<{ node_id: unknown; holder: string | null }>(
        'SELECT node_id, holder FROM snowkey_node_leases ORDER BY node_id',
      )
    ).map((r) => ({ nodeId: Number(r.node_id), holder: r.holder }));

  beforeAll(async () => {
    await ctx.db.query(PLAYERS_DDL);
    app = await startPlayersApp(ctx.db);
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
  });

  test('GIVEN the application listens THEN its node id is held in the lease table (raw SQL)', async () => {
    const lease = app!.snowkey.lease!;
    expect(lease.state).toBe('held');
    const held = (await leaseRows()).filter((r) => r.holder !== null);
    expect(held).toEqual([{ nodeId: lease.nodeId, holder: lease.holder }]);
  });

  test('GIVEN POST /players THEN the row read back with raw SQL has the id the generator issued on the leased node id', async () => {
    const before = app!.snowkey.health().generator!.idsIssued;
    const res = await post(url('/players'), { name: 'ada' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; name: string };
    expect(body.name).toBe('ada');
    expect(body.id).toMatch(/^[1-9][0-9]*$/);
    const rows = await ctx.db.query<{ id: string; name: string }>(
      "SELECT id, name FROM players WHERE name = 'ada'",
    );
    expect(rows).toEqual([{ id: body.id, name: 'ada' }]);
    expect(decode(BigInt(rows[0]!.id), { layout: layouts.default }).workerId).toBe(
      app!.snowkey.lease!.nodeId,
    );
    expect(app!.snowkey.health().generator!.idsIssued).toBe(before + 1);
  });

  test('GIVEN GET /players/:id with the id the POST returned THEN ParseIdPipe reads it as the exact bigint', async () => {
    const created = (await (await post(url('/players'), { name: 'grace' })).json()) as { id: string };
    const res = await fetch(url(`/players/${created.id}`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: created.id, name: 'grace' });
    const missing = await fetch(url(`/players/${BigInt(created.id) + 1n}`));
    expect(missing.status).toBe(404);
  });

  test.each([
    ['not digits', 'abc'],
    ['zero', '0'],
    ['a leading zero', '01'],
    ['2^63', String(2n ** 63n)],
    ['a fraction', '1.5'],
  ])('GIVEN GET /players/:id with %s THEN 400 naming param.id', async (_, bad) => {
    const res = await fetch(url(`/players/${encodeURIComponent(bad)}`));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; argument: string; message: string };
    expect(body.error).toBe('InvalidIdError');
    expect(body.argument).toBe('param.id');
    expect(body.message).toContain('param.id');
  });

  test('GIVEN the health routes THEN they report the held lease with 200', async () => {
    const lease = app!.snowkey.lease!;
    for (const probe of ['ready', 'live']) {
      const res = await fetch(url(`/healthz/${probe}`));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const report = (await res.json()) as { status: string; ready: boolean; lease: Record<string, unknown> };
      expect(report).toMatchObject({ status: 'pass', ready: true, live: true });
      expect(report.lease).toMatchObject({
        nodeId: lease.nodeId,
        holder: lease.holder,
        state: 'held',
        fenced: false,
      });
    }
  });

  test('GIVEN a second application on the same database THEN it leases another node id, and app.close() releases each (raw SQL)', async () => {
    other = await startPlayersApp(ctx.db);
    const first = app!.snowkey.lease!;
    const second = other.snowkey.lease!;
    expect(second.nodeId).not.toBe(first.nodeId);
    expect((await leaseRows()).filter((r) => r.holder !== null)).toHaveLength(2);

    await other.close();
    other = undefined;
    expect(second.state).toBe('released');
    const afterOne = await leaseRows();
    expect(afterOne.find((r) => r.nodeId === second.nodeId)!.holder).toBeNull();
    expect(afterOne.find((r) => r.nodeId === first.nodeId)!.holder).toBe(first.holder);

    await app!.close();
    app = undefined;
    expect((await leaseRows()).filter((r) => r.holder !== null)).toEqual([]);
  });
});
