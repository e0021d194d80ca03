import { layouts, leaseNodeId, manualClock, type NodeLease, Snowflake } from '@snowkey/core';
import { type MergeDatabase, openDatabase } from '@snowkey/merge';
import { describeEachDialect } from '@snowkey/test-harness';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const T0 = Date.UTC(2026, 0, 1);
const timing = { ttlMs: 10_000, renewEveryMs: 3_000, expiryMarginMs: 1_000, heartbeat: false } as const;
const layout = layouts.default;

describeEachDialect('snowkey leases list|show|free', (ctx) => {
  let db: MergeDatabase;
  const leases: NodeLease[] = [];
  beforeAll(async () => {
    db = await openDatabase(ctx.db.url);
  });
  afterEach(async () => {
    for (const l of leases.splice(0)) await l.release().catch(() => {});
  });
  afterAll(async () => {
    await db.close();
  });
  let tableNo = 0;
  const freshTable = () => `cli_leases_${++tableNo}`;
  const take = async (table: string, clock: () => number, holderLabel?: string) => {
    const l = await leaseNodeId({ client: db, layout, table, clock, holderLabel, ...timing });
    leases.push(l);
    return l;
  };
  const rawRow = async (table: string, nodeId: number) =>
    (
      await ctx.db.query<Record<string, unknown>>(
        `SELECT holder, version, expires_at, ceiling, high_water FROM ${table} WHERE node_id = ?`,
        [nodeId],
      )
    )[0];
  const cli = (clock: { current: number }, ...argv: string[]) =>
    runCli(['leases', ...argv, '--url', ctx.db.url], { clock: () => clock.current });

  test('GIVEN three leases, one released and one expired THEN list shows each as the table holds it, in a table and in JSON', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const a = await take(table, clock.now, 'pid-11@game-0');
    const b = await take(table, clock.now, 'pid-12@game-1');
    const c = await take(table, clock.now, 'pid-13@game-2');
    new Snowflake({ layout, lease: b, clock: clock.now }).nextIds(3);
    await b.release();
    clock.advance(5_000);
    new Snowflake({ layout, lease: a, clock: clock.now }).nextIds(2);
    await a.renew();
    clock.advance(6_000); // c (never renewed) has expired; a has not
    void c;

    const json = await cli(clock, 'list', '--table', table, '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    const rowA = await rawRow(table, 0);
    expect(report.store).toBe(`${ctx.dialect} table ${table}`);
    expect(report.nodeIds).toEqual({ total: 1024, free: 1023, layout: layout.name });
    expect(report.leases).toEqual([
      {
        nodeId: 0,
        status: 'held',
        holder: rowA!.holder,
        label: 'pid-11@game-0',
        acquiredAt: new Date(T0).toISOString(),
        renewedAt: new Date(T0 + 5_000).toISOString(),
        expiresAt: new Date(Number(rowA!.expires_at)).toISOString(),
        ceiling: new Date(Number(rowA!.ceiling)).toISOString(),
        highWater: new Date(T0 + 5_000).toISOString(),
      },
      expect.objectContaining({ nodeId: 1, status: 'released', holder: null, label: null, expiresAt: null }),
      expect.objectContaining({ nodeId: 2, status: 'expired', label: 'pid-13@game-2' }),
    ]);
    expect(report.leases[1].highWater).toBe(
      new Date(Number((await rawRow(table, 1))!.high_water)).toISOString(),
    );

    const text = await cli(clock, 'list', '--table', table);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('host/pid');
    expect(text.stdout).toMatch(/│ +0 │ held +│ pid-11@game-0 .*\(in 4 s\)/);
    expect(text.stdout).toMatch(/│ +1 │ released │ — /);
    expect(text.stdout).toMatch(/│ +2 │ expired +│ pid-13@game-2 /);
    expect(text.stdout).toContain('free node ids: 1,023 of 1,024 (layout snowkey)');

    const show = await cli(clock, 'show', '0', '--table', table);
    expect(show.stdout).toContain(`holder           ${rowA!.holder}`);
    expect((await cli(clock, 'show', '9', '--table', table)).stdout).toBe(
      'node id 9 was never leased: it is free.\n',
    );
  });

  test('GIVEN a live lease THEN free refuses and writes nothing; GIVEN it expired THEN free releases it with its ceiling as high-water mark, so its next holder starts after every id it could issue', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const l = await take(table, clock.now);
    const gen = new Snowflake({ layout, lease: l, clock: clock.now });
    const issued = gen.nextIds(5);
    const before = await rawRow(table, 0);

    const refused = await cli(clock, 'free', '0', '--table', table);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^refused: node id 0 is held by pid-\d+.* until .* \(in 10000 ms\): its holder may be running/,
    );
    expect(await rawRow(table, 0)).toEqual(before);

    clock.advance(10_001); // the holder died without releasing: its lease expired
    const freed = await cli(clock, 'free', '0', '--table', table, '--json');
    expect(freed.code).toBe(0);
    expect(JSON.parse(freed.stdout)).toMatchObject({ nodeId: 0, outcome: 'freed' });
    const after = await rawRow(table, 0);
    expect(after!.holder).toBeNull();
    expect(Number(after!.high_water)).toBe(Number(before!.ceiling));
    expect(Number(after!.version)).toBe(Number(before!.version) + 1);

    const heir = await take(table, clock.now);
    expect([heir.nodeId, heir.startAfter]).toEqual([0, Number(before!.ceiling)]);
    const next = new Snowflake({ layout, lease: heir, clock: clock.now }).nextIds(5);
    expect(next[0]! > issued.at(-1)!).toBe(true);
    expect((await cli(clock, 'free', '7', '--table', table)).stdout).toBe(
      'node id 7 was never leased: it is free.\n',
    );
  });

  test('GIVEN --force on a live lease THEN the holder is evicted: its next renewal fails, its generator stops, AND the id is taken again only after its ceiling', async () => {
    const table = freshTable();
    const clock = manualClock(T0);
    const l = await take(table, clock.now);
    const gen = new Snowflake({ layout, lease: l, clock: clock.now });
    gen.nextIds(3);
    const before = await rawRow(table, 0);

    const evicted = await cli(clock, 'free', '0', '--table', table, '--force');
    expect(evicted.code).toBe(0);
    expect(evicted.stdout).toMatch(/^node id 0 evicted: its holder stops issuing ids at its next renewal/);
    const after = await rawRow(table, 0);
    expect(after!.holder).toMatch(/^evicted-by-operator\//);
    expect(Number(after!.expires_at)).toBe(Number(before!.ceiling));

    expect((await cli(clock, 'list', '--table', table, '--json')).stdout).toContain('"status": "evicted"');
    clock.advance(3_000);
    await expect(l.renew()).rejects.toThrow(/taken by another holder/);
    clock.advance(1);
    expect(() => gen.nextId()).toThrow(/taken by another holder/);
    const other = await take(table, clock.now); // before the ceiling: another id
    expect(other.nodeId).toBe(1);
    clock.set(Number(before!.ceiling) + 1);
    const heir = await take(table, clock.now);
    expect([heir.nodeId, heir.startAfter]).toEqual([0, Number(before!.ceiling)]);
  });

  test('GIVEN no URL or an unknown scheme THEN the usage error lists the stores', async () => {
    const none = await runCli(['leases', 'list']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      '"--url" must be the lease store\'s URL (postgres://, mysql://, mariadb://, file:, sqlite:, etcd://, etcds://)',
    );
    const redis = await runCli(['leases', 'list', '--url', 'redis://127.0.0.1:6379']);
    expect(redis.code).toBe(2);
  });
});
