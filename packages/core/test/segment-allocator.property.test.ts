import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { SegmentGrant } from '../src/index.js';
import {
  IdRangeExhaustedError,
  manualClock,
  SegmentAllocator,
  SegmentUnavailableError,
} from '../src/index.js';
import { manualSegmentStore } from './fixtures/manual-segment-store.js';

const MAX_ID = 3000n;

const op = fc.oneof(
  fc.constant({ kind: 'nextId' as const }),
  fc.record({ kind: fc.constant('nextIds' as const), n: fc.integer({ min: 0, max: 250 }) }),
  fc.constant({ kind: 'answer' as const }),
  fc.constant({ kind: 'fail' as const }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3000 }) }),
  fc.record({ kind: fc.constant('elsewhere' as const), n: fc.integer({ min: 1, max: 200 }) }),
);

test('GIVEN any interleaving of calls, store answers, store failures, other takers and time THEN no id is issued twice, every id lies in a range the store granted, ids only grow, and every refusal is a typed error', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(op, { maxLength: 120 }),
      fc.double({ min: 0, max: 0.95, noNaN: true }),
      async (ops, prefetchAt) => {
        const m = manualSegmentStore();
        const clock = manualClock(Date.UTC(2026, 0, 1));
        const allocator = new SegmentAllocator({
          store: m.store,
          tag: 'p',
          step: 20,
          maxStep: 160,
          prefetchAt,
          maxId: MAX_ID,
          retryMs: 1000,
          clock: clock.now,
        });
        const ready = allocator.ready();
        const grants: SegmentGrant[] = [(await m.answer())!];
        await ready;
        const issued: bigint[] = [];
        const attempt = (fn: () => bigint[]) => {
          try {
            issued.push(...fn());
          } catch (err) {
            if (!(err instanceof SegmentUnavailableError || err instanceof IdRangeExhaustedError)) throw err;
          }
        };
        for (const o of ops) {
          if (o.kind === 'nextId') attempt(() => [allocator.nextId()]);
          else if (o.kind === 'nextIds') attempt(() => allocator.nextIds(o.n));
          else if (o.kind === 'answer' && m.pending > 0) {
            const g = await m.answer();
            if (g) grants.push(g);
          } else if (o.kind === 'fail' && m.pending > 0) await m.reject();
          else if (o.kind === 'advance') clock.advance(o.ms);
          else if (o.kind === 'elsewhere') m.takeElsewhere(BigInt(o.n));
        }
        for (let i = 1; i < issued.length; i++) expect(issued[i]! > issued[i - 1]!).toBe(true);
        for (const id of issued) {
          expect(grants.some((g) => g.first <= id && id <= g.last)).toBe(true);
          expect(id >= 1n && id <= MAX_ID).toBe(true);
        }
        const closing = allocator.close();
        while (m.pending > 0) await m.answer();
        await closing;
        expect(() => allocator.nextId()).toThrow(SegmentUnavailableError);
      },
    ),
    { numRuns: 300 },
  );
});
