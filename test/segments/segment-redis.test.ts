import { once } from 'node:events';
import type { RedisCommandClient } from '@snowkey/core';
import {
  IdRangeExhaustedError,
  manualClock,
  redisSegmentStore,
  SegmentAllocator,
  type SegmentAllocatorOptions,
  SegmentStoreError,
  SegmentUnavailableError,
} from '@snowkey/core';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { caught } from '../../packages/core/test/caught.js';
import { describeRedis } from '../helpers/redis-server.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { openRedis, type RedisClientKind, recordingRedis } from './redis-clients.js';

const KINDS: RedisClientKind[] = ['node-redis', 'ioredis'];

describeRedis('segment allocator on Redis', (ctx) => {
  const closers: (() => Promise<void>)[] = [];
  let raw: { get(key: string): Promise<string | null>; quit(): Promise<unknown> } | undefined;
  let tagNo = 0;
  const freshTag = () => `tag_${++tagNo}`;
  const open = async (kind: RedisClientKind) => {
    const opened = await openRedis(kind, ctx.url);
    closers.push(opened.close);
    return opened.client;
  };
  const allocator = (
    client: RedisCommandClient,
    tag: string,
    options: Partial<SegmentAllocatorOptions> = {},
  ) => {
    const a = new SegmentAllocator({
      store: redisSegmentStore(client, { keyPrefix: ctx.keyPrefix }),
      tag,
      clock: manualClock(Date.UTC(2026, 0, 1)).now,
      ...options,
    } as SegmentAllocatorOptions);
    closers.unshift(() => a.close());
    return a;
  };
  /** The counter as Redis holds it, read with a plain client. */
  const counter = async (tag: string) => raw!.get(ctx.keyPrefix + tag);
  const drain = (a: SegmentAllocator) => a.nextIds(a.buffered);

  beforeAll(async () => {
    raw = await createClient({ url: ctx.url }).connect();
  });
  afterAll(async () => {
    await raw?.quit();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close().catch(() => {});
  });

  test.each(KINDS)(
    'GIVEN %s AND a missing key THEN ready() takes the first 1000 ids AND the counter reads 1000',
    async (kind) => {
      const tag = freshTag();
      const a = allocator(await open(kind), tag);
      await a.ready();
      expect(await counter(tag)).toBe('1000');
      expect(a.nextIds(3)).toEqual([1n, 2n, 3n]);
    },
  );

  test.each(KINDS)(
    "GIVEN %s AND ids above 2^62 THEN they come back exact (the script returns GET's string, not a Lua double)",
    async (kind) => {
      const tag = freshTag();
      const base = 2n ** 62n + 1n;
      const a = allocator(await open(kind), tag, { minId: base, step: 3, maxStep: 3 });
      await a.ready();
      expect(await counter(tag)).toBe(String(base + 2n));
      expect(drain(a)).toEqual([base, base + 1n, base + 2n]);
    },
  );

  test("GIVEN eight allocators of one tag on both clients, racing for 30 segments each THEN the ranges Redis handed out tile 1..counter, AND every id issued lies in its own allocator's ranges", async () => {
    const tag = freshTag();
    const recorders = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => recordingRedis(await open(KINDS[i % 2]!))),
    );
    const allocators = recorders.map((r) => allocator(r.client, tag, { step: 7, maxStep: 7, prefetchAt: 0 }));
    const issued: bigint[][] = allocators.map(() => []);
    await Promise.all(
      allocators.map(async (a, i) => {
        for (let round = 0; round < 30; round++) {
          await a.ready(a.buffered + 1);
          issued[i]!.push(...drain(a));
        }
      }),
    );
    await Promise.all(allocators.map((a) => a.close()));

    const ranges = recorders.flatMap((r) => r.taken).sort(([x], [y]) => (x < y ? -1 : 1));
    expect(ranges[0]![0]).toBe(1n);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1] + 1n);
    expect(String(ranges.at(-1)![1])).toBe(await counter(tag));
    const all = issued.flat();
    expect(all).toHaveLength(8 * 30 * 7);
    expect(new Set(all).size).toBe(all.length);
    issued.forEach((ids, i) => {
      for (const id of ids) expect(recorders[i]!.taken.some(([lo, hi]) => lo <= id && id <= hi)).toBe(true);
    });
  });

  test('GIVEN maxId 2500 THEN ids 1..2500 come out AND then IdRangeExhaustedError', async () => {
    const tag = freshTag();
    const a = allocator(await open('node-redis'), tag, { maxId: 2500, maxStep: 1000 });
    const ids: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      await a.ready();
      ids.push(...drain(a));
    }
    expect(ids).toEqual(Array.from({ length: 2500 }, (_, i) => BigInt(i + 1)));
    await expect(a.ready()).rejects.toBeInstanceOf(IdRangeExhaustedError);
    expect(() => a.nextId()).toThrow(IdRangeExhaustedError);
  });

  test('GIVEN a counter below a raised minId THEN the next segment starts at minId', async () => {
    const tag = freshTag();
    const client = await open('ioredis');
    await allocator(client, tag).ready();
    const a = allocator(client, tag, { minId: 1_000_000n });
    await a.ready();
    expect(a.nextId()).toBe(1_000_000n);
  });

  test('GIVEN Redis cut off after the first segment THEN ids come from the buffer, then SegmentUnavailableError at once, AND after it returns ids resume above every id issued', async () => {
    const proxy = await startTcpProxy(new URL(ctx.url));
    // disableOfflineQueue: a command sent while disconnected fails at once instead of waiting.
    const client = createClient({
      url: proxy.via(ctx.url),
      disableOfflineQueue: true,
      socket: { reconnectStrategy: 50 },
    });
    client.on('error', () => {});
    await client.connect();
    closers.push(async () => {
      proxy.restore();
      if (client.isOpen) await client.quit().catch(() => client.destroy());
      await proxy.close();
    });
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => {
      failed = resolve;
    });
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const a = allocator(client, 'cut', {
      step: 100,
      maxStep: 100,
      retryMs: 5000,
      clock: clock.now,
      onError: failed,
    });
    await a.ready();

    proxy.cut();
    const ids = Array.from({ length: 10 }, () => a.nextId());
    await firstFailure;
    ids.push(...Array.from({ length: 90 }, () => a.nextId()));
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i + 1)));
    const err = caught(() => a.nextId());
    expect(err).toBeInstanceOf(SegmentUnavailableError);
    expect(err).toMatchObject({ reason: 'store-failing', available: 0 });
    expect((err as Error).cause).toBeInstanceOf(SegmentStoreError);

    proxy.restore();
    if (!client.isReady) await once(client, 'ready'); // node-redis reconnects by itself
    clock.advance(5000);
    await a.ready();
    expect(a.nextId() > 100n).toBe(true);
    expect(BigInt((await counter('cut'))!) >= 200n).toBe(true);
  });
});
