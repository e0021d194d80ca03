import 'reflect-metadata';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PLAYERS_DDL, type RunningApp, startPlayersApp } from './support/players-app.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describeEachDialect('SnowkeyModule with a segment allocator', (ctx) => {
  let app: RunningApp | undefined;

  beforeAll(async () => {
    await ctx.db.query(PLAYERS_DDL);
    app = await startPlayersApp(ctx.db, { segment: { tag: 'players', step: 100 } });
  });
  afterAll(() => app?.close());

  test('GIVEN the application listens THEN its first segment is taken (raw SQL)', async () => {
    const [row] = await ctx.db.query<{ max_id: string }>(
      "SELECT max_id FROM snowkey_segments WHERE tag = 'players'",
    );
    expect(BigInt(row!.max_id)).toBeGreaterThanOrEqual(100n);
    expect(app!.snowkey.lease).toBeUndefined();
    expect(app!.snowkey.segment!.stats().state).toBe('ready');
  });

  test('GIVEN two POSTs THEN their rows (raw SQL) hold consecutive ids from the segment', async () => {
    const a = (await (await post(`${app!.url}/players`, { name: 'seg-a' })).json()) as { id: string };
    const b = (await (await post(`${app!.url}/players`, { name: 'seg-b' })).json()) as { id: string };
    const rows = await ctx.db.query<{ id: string; name: string }>(
      "SELECT id, name FROM players WHERE name IN ('seg-a', 'seg-b') ORDER BY name",
    );
    expect(rows).toEqual([
      { id: a.id, name: 'seg-a' },
      { id: b.id, name: 'seg-b' },
    ]);
    expect(BigInt(b.id)).toBe(BigInt(a.id) + 1n);
    const [segment] = await ctx.db.query<{ max_id: string }>(
      "SELECT max_id FROM snowkey_segments WHERE tag = 'players'",
    );
    expect(BigInt(b.id)).toBeLessThanOrEqual(BigInt(segment!.max_id));
  });

  test('GIVEN the probe THEN it reports the segment; app.close() closes the allocator', async () => {
    const res = await fetch(`${app!.url}/healthz/ready`);
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      segments: Array<{ tag: string; state: string; idsIssued: number }>;
    };
    expect(report.segments).toEqual([
      expect.objectContaining({ tag: 'players', state: 'ready', idsIssued: 2 }),
    ]);
    const segment = app!.snowkey.segment!;
    await app!.close();
    app = undefined;
    expect(segment.stats().state).toBe('closed');
  });
});
