import 'reflect-metadata';
import { decode, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startKnexApp } from './support/knex-app.js';
import { PLAYERS_DDL, type RunningApp } from './support/players-app.js';

describeEachDialect("SnowkeyModule leasing through the application's Knex", (ctx) => {
  let app: RunningApp | undefined;
  const held = async () =>
    (
      await ctx.db.query<{ node_id: unknown; holder: string }>(
        'SELECT node_id, holder FROM snowkey_node_leases WHERE holder IS NOT NULL',
      )
    ).map((r) => [Number(r.node_id), r.holder]);

  beforeAll(async () => {
    await ctx.db.query(PLAYERS_DDL);
    app = await startKnexApp(ctx.db);
  });
  afterAll(() => app?.close());

  test('GIVEN the application listens THEN the lease row is held (raw SQL), and a POST row carries its node id', async () => {
    const lease = app!.snowkey.lease!;
    expect(await held()).toEqual([[lease.nodeId, lease.holder]]);
    const res = await fetch(`${app!.url}/players`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'knex' }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string };
    const rows = await ctx.db.query<{ id: string }>("SELECT id FROM players WHERE name = 'knex'");
    expect(rows).toEqual([{ id: body.id }]);
    expect(decode(BigInt(body.id), { layout: layouts.default }).workerId).toBe(lease.nodeId);
    expect(await (await fetch(`${app!.url}/players/${body.id}`)).json()).toEqual({
      id: body.id,
      name: 'knex',
    });
    expect((await fetch(`${app!.url}/players/-1`)).status).toBe(400);
  });

  test('GIVEN app.close() THEN the lease is released before Knex is destroyed (raw SQL)', async () => {
    const lease = app!.snowkey.lease!;
    await app!.close();
    app = undefined;
    expect(lease.state).toBe('released');
    expect(await held()).toEqual([]);
  });
});
