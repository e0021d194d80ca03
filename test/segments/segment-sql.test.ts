import { IdRangeExhaustedError, manualClock, SegmentAllocator, type SqlClient } from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { gatedSqlClient } from '../leases/gated-sql-client.js';
import { openSqlClient } from '../leases/open-sql-client.js';

const T0 = Date.UTC(2026, 0, 1);

/**
 * Wraps `client`, recording what each UPDATE of max_id reported (1: took the range; 0: someone
 * moved max_id first) and, from its own parameters, the range each successful one took: an
 * oracle independent of the allocator.
 */
function countingUpdates(client: SqlClient) {
  const updates: number[] = [];
  const taken: [bigint, bigint][] = [];
  const counted: SqlClient = {
    dialect: client.dialect,
    query: (sql, params) => client.query(sql, params),
    async execute(sql, params) {
      const n = await client.execute(sql, params);
      if (sql.startsWith('UPDATE')) {
        updates.push(n);
        // SET max_id = <next> ... WHERE ... max_id = <what was read>
        if (n === 1) taken.push([BigInt(params![3] as string) + 1n, BigInt(params![0] as string)]);
      }
      return n;
    },
  };
  return { client: counted, updates, taken };
}

describeEachDialect('segment allocator on SQL', (ctx) => {
  const closers: (() => Promise<void>)[] = [];
  let tagNo = 0;
  const freshTag = () => `tag_${++tagNo}`;
  const client = async () => {
    const opened = await openSqlClient(ctx.db);
    closers.push(opened.close);
    return opened.client;
  };
  const allocator = (c: SqlClient, tag: string, options: object = {}) => {
    const a = new SegmentAllocator({ client: c, tag, clock: manualClock(T0).now, ...options });
    closers.unshift(() => a.close());
    return a;
  };
  const row = async (tag: string) =>
    (
      await ctx.db.query<{ max_id: string; step: number; created_at: string; updated_at: string }>(
        'SELECT max_id, step, created_at, updated_at FROM snowkey_segments WHERE tag = ?',
        [tag],
      )
    )[0];
  const drain = (a: SegmentAllocator) => a.nextIds(a.buffered);

  afterEach(async () => {
    for (const close of closers.splice(0)) await close().catch(() => {});
  });

  test('GIVEN a database without the table THEN ready() creates it and the row, AND the first segment moves max_id by the step', async () => {
    const tag = freshTag();
    const a = allocator(await client(), tag);
    await a.ready();
    expect(await row(tag)).toEqual({
      max_id: '1000',
      step: 1000,
      created_at: String(T0),
      updated_at: String(T0),
    });
    expect(a.nextIds(3)).toEqual([1n, 2n, 3n]);
  });

  test('GIVEN an allocator that read max_id AND another that takes a segment before its UPDATE lands THEN that UPDATE changes no row, it reads again, AND the two ranges are adjacent', async () => {
    const tag = freshTag();
    const gated = gatedSqlClient(await client());
    const counted = countingUpdates(gated);
    const a = allocator(counted.client, tag, { step: 100, maxStep: 100 });
    const b = allocator(await client(), tag, { step: 100, maxStep: 100 });
    await a.ready();
    await b.ready();
    const gate = gated.holdNext(/^UPDATE/);
    drain(a); // a's prefetch reads max_id = 200 and waits at the gate to move it to 300
    await gate.reached;
    drain(b); // b reads 200 too, and moves it to 300 first
    await b.ready(1);
    gate.open();
    await a.ready(1);

    expect(counted.updates).toEqual([1, 0, 1]); // a's first segment, the lost race, the retry
    expect((await row(tag))!.max_id).toBe('400');
    expect(drain(b)).toEqual(Array.from({ length: 100 }, (_, i) => 201n + BigInt(i)));
    expect(drain(a)).toEqual(Array.from({ length: 100 }, (_, i) => 301n + BigInt(i)));
  });

  test('GIVEN ids above 2^62 AND a race over a step of 1 THEN the lost UPDATE matches no row: the comparison is exact, not a double', async () => {
    const tag = freshTag();
    const base = 2n ** 62n;
    const gated = gatedSqlClient(await client());
    const counted = countingUpdates(gated);
    const options = { step: 1, maxStep: 1, minId: base };
    const a = allocator(counted.client, tag, options);
    const b = allocator(await client(), tag, options);
    await a.ready();
    await b.ready();
    const gate = gated.holdNext(/^UPDATE/);
    const firsts = [a.nextId()]; // a's prefetch reads max_id = base + 1 and waits at the gate
    await gate.reached;
    firsts.push(b.nextId()); // b's reads it too and moves it to base + 2, the same double as base + 1
    await b.ready(1);
    gate.open();
    await a.ready(1);

    expect(counted.updates).toEqual([1, 0, 1]);
    expect((await row(tag))!.max_id).toBe(String(base + 3n));
    const ids = [...firsts, b.nextId(), a.nextId()];
    expect(ids).toEqual([base, base + 1n, base + 2n, base + 3n]);
  });

  test("GIVEN eight allocators of one tag, each on its own connection, racing for 30 segments each THEN the ranges their UPDATEs took are disjoint and together cover 1..max_id, AND every id issued lies in its own allocator's ranges", async () => {
    const tag = freshTag();
    const counted = await Promise.all(Array.from({ length: 8 }, async () => countingUpdates(await client())));
    const allocators = counted.map((c) => allocator(c.client, tag, { step: 7, maxStep: 7, prefetchAt: 0 }));
    const issued: bigint[][] = allocators.map(() => []);
    await Promise.all(
      allocators.map(async (a, i) => {
        for (let round = 0; round < 30; round++) {
          await a.ready(a.buffered + 1); // one more take
          issued[i]!.push(...drain(a));
        }
      }),
    );
    await Promise.all(allocators.map((a) => a.close())); // settles prefetches still in flight

    const ranges = counted.flatMap((c) => c.taken).sort(([a], [b]) => (a < b ? -1 : 1));
    const maxId = BigInt((await row(tag))!.max_id);
    expect(ranges[0]![0]).toBe(1n);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1] + 1n);
    expect(ranges.at(-1)![1]).toBe(maxId);
    expect(counted.flatMap((c) => c.updates).filter((n) => n === 0).length).toBeGreaterThan(0); // they did race
    const all = issued.flat();
    expect(all).toHaveLength(8 * 30 * 7);
    expect(new Set(all).size).toBe(all.length);
    issued.forEach((ids, i) => {
      for (const id of ids) expect(counted[i]!.taken.some(([lo, hi]) => lo <= id && id <= hi)).toBe(true);
    });
  });

  test('GIVEN maxId 2500 AND step 1000 THEN ids 1..2500 come out, max_id stops at 2500, AND then IdRangeExhaustedError', async () => {
    const tag = freshTag();
    const a = allocator(await client(), tag, { maxId: 2500, maxStep: 1000 });
    const ids: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      await a.ready();
      ids.push(...drain(a));
    }
    expect(ids).toEqual(Array.from({ length: 2500 }, (_, i) => BigInt(i + 1)));
    await expect(a.ready()).rejects.toBeInstanceOf(IdRangeExhaustedError);
    expect(() => a.nextId()).toThrow(IdRangeExhaustedError);
    expect((await row(tag))!.max_id).toBe('2500');
  });

  test('GIVEN a row whose step an operator set to 50 AND no step option THEN segments hold 50 ids', async () => {
    const tag = freshTag();
    const c = await client();
    await allocator(c, tag).ready();
    await ctx.db.query('UPDATE snowkey_segments SET step = 50 WHERE tag = ?', [tag]);
    const a = allocator(c, tag, { maxStep: 50 });
    await a.ready();
    expect(a.buffered).toBe(50);
    expect((await row(tag))!.max_id).toBe('1050');
  });

  test('GIVEN a tag whose counter is below a raised minId THEN the next segment starts at minId', async () => {
    const tag = freshTag();
    const c = await client();
    await allocator(c, tag).ready();
    const a = allocator(c, tag, { minId: 1_000_000n });
    await a.ready();
    expect(a.nextId()).toBe(1_000_000n);
    expect((await row(tag))!.max_id).toBe('1000999');
  });
});
