import { describe, expect, test } from 'vitest';
import {
  IdRangeExhaustedError,
  manualClock,
  SegmentAllocator,
  type SegmentAllocatorOptions,
  SegmentStoreError,
  SegmentUnavailableError,
} from '../src/index.js';
import { caught } from './caught.js';
import { manualSegmentStore, settle } from './fixtures/manual-segment-store.js';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

/** An allocator on a manual store, made ready with its first segment. */
async function started(options: Partial<SegmentAllocatorOptions> = {}, storeOptions = {}) {
  const m = manualSegmentStore(storeOptions);
  const clock = manualClock(T0);
  const allocator = new SegmentAllocator({
    store: m.store,
    tag: 'orders',
    step: 100,
    clock: clock.now,
    ...options,
  } as SegmentAllocatorOptions);
  const ready = allocator.ready();
  await m.answer();
  await ready;
  return { allocator, m, clock };
}

function take(allocator: SegmentAllocator, n: number): bigint[] {
  return Array.from({ length: n }, () => allocator.nextId());
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));

describe('SegmentAllocator: double buffer', () => {
  test('GIVEN an allocator never made ready WHEN nextId THEN SegmentUnavailableError "not-ready" and no store call', () => {
    const m = manualSegmentStore();
    const allocator = new SegmentAllocator({ store: m.store, tag: 'orders' });
    const err = caught(() => allocator.nextId());
    expect(err).toBeInstanceOf(SegmentUnavailableError);
    expect(err).toMatchObject({ reason: 'not-ready', tag: 'orders', requested: 1, available: 0 });
    expect(m.requests).toEqual([]);
  });

  test('GIVEN step 100 and prefetchAt 0.1 THEN the next segment is asked for exactly when the 10th id is issued, and ids run on across the switch', async () => {
    const { allocator, m } = await started();
    expect(m.requests).toHaveLength(1);
    expect(take(allocator, 9)).toEqual(range(1, 9));
    expect(m.requests).toHaveLength(1);
    expect(allocator.nextId()).toBe(10n);
    expect(m.requests).toHaveLength(2);
    await m.answer();
    // The whole first segment, then the second, with no further store call.
    expect(take(allocator, 100)).toEqual(range(11, 110));
    expect(m.requests).toHaveLength(2);
    // The second segment holds 200 (a segment used up at once doubles the step): 10% is 20 ids.
    expect(m.requests[1]!.count).toBe(200);
    expect(take(allocator, 9)).toEqual(range(111, 119));
    expect(m.requests).toHaveLength(2);
    expect(allocator.nextId()).toBe(120n);
    expect(m.requests).toHaveLength(3);
  });

  test('GIVEN a store that does not answer the prefetch WHEN both buffers run dry THEN nextId throws "refilling" at once, issues nothing twice, and resumes when the store answers', async () => {
    const { allocator, m } = await started();
    const issued = take(allocator, 100);
    expect(issued).toEqual(range(1, 100));
    expect(m.pending).toBe(1);
    const err = caught(() => allocator.nextId());
    expect(err).toBeInstanceOf(SegmentUnavailableError);
    expect(err).toMatchObject({ reason: 'refilling', requested: 1, available: 0 });
    expect(m.requests).toHaveLength(2); // no second fetch while one is in flight
    await m.answer();
    expect(allocator.nextId()).toBe(101n);
  });

  test('GIVEN a store that fails THEN the buffer is served, then "store-failing" with the store error as cause, no retry before retryMs, AND recovery once the store answers', async () => {
    const errors: SegmentStoreError[] = [];
    const { allocator, m, clock } = await started({ retryMs: 1000, onError: (e) => errors.push(e) });
    take(allocator, 10);
    await m.reject(new Error('ECONNREFUSED'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SegmentStoreError);
    expect(errors[0]!.message).toMatch(
      /could not take a segment of 200 ids for tag "orders" from manual: Error: ECONNREFUSED/,
    );
    // The first segment still serves every one of its ids, without a new attempt before retryMs.
    expect(take(allocator, 90)).toEqual(range(11, 100));
    const err = caught(() => allocator.nextId());
    expect(err).toMatchObject({ name: 'SegmentUnavailableError', reason: 'store-failing', available: 0 });
    expect((err as Error).cause).toBe(errors[0]);
    expect(m.requests).toHaveLength(2);

    clock.advance(1000);
    expect(() => allocator.nextId()).toThrow(SegmentUnavailableError); // this call starts the retry
    expect(m.requests).toHaveLength(3);
    await m.answer();
    expect(allocator.nextId()).toBe(101n);
  });

  test('GIVEN a failed prefetch while the current segment has ids THEN a later nextId retries after retryMs, before the buffer runs dry', async () => {
    const { allocator, m, clock } = await started({ retryMs: 500 });
    take(allocator, 10);
    await m.reject();
    take(allocator, 20);
    expect(m.requests).toHaveLength(2);
    clock.advance(500);
    allocator.nextId();
    expect(m.requests).toHaveLength(3);
    await m.answer();
    expect(take(allocator, 69 + 100)).toEqual(range(32, 200));
  });

  test('GIVEN close() while a fetch is in flight THEN close waits for it, its range is dropped, and nextId and ready refuse with "closed"', async () => {
    const { allocator, m } = await started();
    take(allocator, 10);
    const closing = allocator.close();
    await m.answer();
    await closing;
    expect(caught(() => allocator.nextId())).toMatchObject({ reason: 'closed' });
    await expect(allocator.ready()).rejects.toMatchObject({
      name: 'SegmentUnavailableError',
      reason: 'closed',
    });
    expect(allocator.buffered).toBe(0);
  });
});

describe('SegmentAllocator: batches', () => {
  test('GIVEN a batch larger than the buffers THEN nextIds throws with none issued, asks the store for the shortfall, AND the same batch succeeds once it arrived', async () => {
    const { allocator, m } = await started();
    allocator.nextId();
    const err = caught(() => allocator.nextIds(500));
    expect(err).toMatchObject({
      name: 'SegmentUnavailableError',
      reason: 'refilling',
      requested: 500,
      available: 99,
    });
    expect(m.requests.at(-1)!.count).toBe(401);
    await m.answer();
    const ids = allocator.nextIds(500);
    expect(ids).toEqual(range(2, 501));
  });

  test('GIVEN ready(n) THEN at least n ids are buffered afterwards and nextIds(n) returns them in order', async () => {
    const { allocator, m } = await started();
    const ready = allocator.ready(1000);
    await m.answer();
    await ready;
    expect(allocator.buffered).toBeGreaterThanOrEqual(1000);
    expect(allocator.nextIds(1000)).toEqual(range(1, 1000));
  });

  test.each([-1, 1.5, Number.NaN, '3'])(
    'GIVEN nextIds(%s) THEN InvalidArgumentError naming count',
    async (count) => {
      const { allocator } = await started();
      expect(caught(() => allocator.nextIds(count as number))).toMatchObject({
        name: 'InvalidArgumentError',
        argument: 'count',
      });
    },
  );
});

describe('SegmentAllocator: dynamic step (time injected)', () => {
  test.each([
    ['1 min, under the 15 min target', 400, 1 * MIN],
    ['20 min', 200, 20 * MIN],
    ['30 min, twice the target', 100, 30 * MIN],
  ])(
    'GIVEN a segment of 200 that lasted %s THEN the next fetch asks for %i',
    async (_case, expected, lastedMs) => {
      const { allocator, m, clock } = await started({ step: 100, maxStep: 1000 });
      take(allocator, 10); // fetch #2 right after the first: a busy start doubles the step
      await m.answer();
      expect(m.requests[1]!.count).toBe(200);
      take(allocator, 90 + 19); // the rest of the first segment, 19 of the second
      clock.advance(lastedMs);
      allocator.nextId(); // the 20th of 200: 10% used, fetch #3
      expect(m.requests[2]!.count).toBe(expected);
    },
  );

  test('GIVEN a busy tag THEN the step doubles up to maxStep and stays there', async () => {
    const { allocator, m } = await started({ step: 100, maxStep: 800, prefetchAt: 0 });
    for (let i = 0; i < 6; i++) {
      allocator.nextIds(allocator.buffered);
      await m.answer();
    }
    expect(m.requests.map((r) => r.count)).toEqual([100, 200, 400, 800, 800, 800, 800]);
  });

  test('GIVEN an idle tag THEN the step halves back down to the base step', async () => {
    const { allocator, m, clock } = await started({ step: 100, maxStep: 800, prefetchAt: 0 });
    for (let i = 0; i < 3; i++) {
      allocator.nextIds(allocator.buffered);
      await m.answer();
    }
    for (let i = 0; i < 4; i++) {
      clock.advance(60 * MIN);
      allocator.nextIds(allocator.buffered);
      await m.answer();
    }
    expect(m.requests.map((r) => r.count)).toEqual([100, 200, 400, 800, 400, 200, 100, 100]);
  });

  test('GIVEN no step option THEN the row step the store keeps is the base step', async () => {
    const { allocator, m } = await started({ step: undefined }, { rowStep: 250 });
    expect(m.requests[0]!.count).toBe(250);
    expect(allocator.step).toBe(250);
  });
});

describe('SegmentAllocator: bounds and runway', () => {
  test('GIVEN maxId 250 and step 100 THEN ids 1..250 are issued, the last segment is cut at 250, AND then IdRangeExhaustedError', async () => {
    const { allocator, m } = await started({ maxId: 250, prefetchAt: 0, maxStep: 100 });
    m.autoGrant();
    const ids: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(...allocator.nextIds(allocator.buffered));
      await settle();
    }
    expect(ids).toEqual(range(1, 250));
    const err = caught(() => allocator.nextId());
    expect(err).toBeInstanceOf(IdRangeExhaustedError);
    expect(err).toMatchObject({ tag: 'orders', maxId: 250n });
    await expect(allocator.ready()).rejects.toBeInstanceOf(IdRangeExhaustedError);
  });

  test('GIVEN minId 1000 THEN the first id is 1000', async () => {
    const { allocator } = await started({ minId: 1000n });
    expect(allocator.nextId()).toBe(1000n);
  });

  test('GIVEN takes 10 s apart that moved the counter by 100 000 THEN runway reports 10 000 ids/s and when maxId is reached', async () => {
    const { allocator, m, clock } = await started({
      step: 1000,
      maxStep: 1000,
      maxId: 1_001_000,
      prefetchAt: 0,
    });
    expect(allocator.runway()).toMatchObject({
      highWater: 1000n,
      remainingIds: 1_000_000n,
      idsPerSecond: undefined,
    });
    m.takeElsewhere(99_000n); // other processes took 99 000 ids meanwhile
    clock.advance(10_000);
    allocator.nextIds(1000);
    await m.answer();
    const r = allocator.runway();
    expect(r).toMatchObject({
      tag: 'orders',
      maxId: 1_001_000n,
      highWater: 101_000n,
      remainingIds: 900_000n,
    });
    expect(r.idsPerSecond).toBe(10_000);
    expect(r.msLeft).toBe(90_000);
    expect(r.exhaustsAt).toBe(T0 + 10_000 + 90_000);
  });
});

describe('SegmentAllocator: a store that breaks its contract', () => {
  test('GIVEN a grant larger than asked for THEN it is refused as a store error, and no id of it is issued', async () => {
    const m = manualSegmentStore();
    const allocator = new SegmentAllocator({
      tag: 't',
      step: 10,
      store: { ...m.store, take: async () => ({ first: 1n, last: 50n }) },
    });
    await expect(allocator.ready()).rejects.toMatchObject({
      name: 'SegmentStoreError',
      cause: { name: 'InvalidArgumentError', argument: 'store.take()' },
    });
    expect(allocator.buffered).toBe(0);
  });
});
