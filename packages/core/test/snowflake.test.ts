import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ClockMovedBackwardsError,
  defineLayout,
  InvalidArgumentError,
  LeaseExpiredError,
  layouts,
  manualClock,
  Snowflake,
  type TimestampFence,
  TimestampOutOfRangeError,
} from '../src/index.js';
import { caught } from './caught.js';

const T0 = Date.UTC(2026, 0, 1);

function strictlyIncreasing(ids: bigint[]) {
  for (let i = 1; i < ids.length; i++) if (ids[i]! <= ids[i - 1]!) return false;
  return true;
}

describe('Snowflake options', () => {
  test('GIVEN workerId 40 on twitter THEN the error names the argument, range and value', () => {
    expect(() => new Snowflake({ layout: layouts.twitter, datacenterId: 1, workerId: 40 })).toThrow(
      '"workerId" must be an integer in 0..31 (received 40)',
    );
  });

  test('GIVEN a missing node field THEN refused, never defaulted to 0', () => {
    // @ts-expect-error datacenterId is missing: a compile error in TypeScript, refused at run time for JavaScript
    expect(() => new Snowflake({ layout: layouts.twitter, workerId: 1 })).toThrow(
      /"datacenterId" must be an integer/,
    );
  });

  test('GIVEN a misspelt option THEN refused naming it and the layout fields', () => {
    // @ts-expect-error a misspelt field: a compile error in TypeScript, refused at run time for JavaScript
    expect(() => new Snowflake({ workrId: 1 })).toThrow(
      /"workrId" must be a known option or a node field of layout "snowkey" \(workerId\)/,
    );
  });

  test.each([
    ['sequenceOverflow', { sequenceOverflow: 'drop' }],
    ['maxBorrowMs', { maxBorrowMs: -1 }],
    ['clockRollbackToleranceMs', { clockRollbackToleranceMs: 1.5 }],
    ['clock', { clock: 5 }],
    ['balanceModulo', { balanceModulo: 'yes' }],
    ['nodeId', { nodeId: 1024 }],
  ])('GIVEN a bad %s THEN InvalidArgumentError names it', (name, opts) => {
    const make = () => new Snowflake({ workerId: 'nodeId' in opts ? undefined : 1, ...opts } as never);
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(`"${name}"`);
  });

  test.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '1767225600000'],
    ['undefined', undefined],
  ])(
    'GIVEN a clock that reads %s THEN InvalidArgumentError names the clock and what it read',
    (_what, reading) => {
      const clock = (() => reading) as never;
      const err = caught(() => new Snowflake({ workerId: 1, clock }).nextId());
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err).toMatchObject({ argument: 'clock', received: reading });
      expect((err as Error).message).toMatch(
        /"clock" must be a function returning a finite number of ms since 1970/,
      );
    },
  );

  test('GIVEN a clock that goes bad after the first id THEN nextId throws InvalidArgumentError and issues nothing', () => {
    let reading = T0;
    const gen = new Snowflake({ workerId: 1, clock: () => reading });
    reading = T0 + 1;
    const first = gen.nextId();
    reading = Number.NaN;
    expect(caught(() => gen.nextId())).toBeInstanceOf(InvalidArgumentError);
    expect(caught(() => gen.nextIds(5000))).toBeInstanceOf(InvalidArgumentError);
    reading = T0 + 2;
    expect(gen.nextId() > first).toBe(true);
  });

  test('GIVEN a packed nodeId on twitter THEN it splits into datacenterId and workerId', () => {
    const gen = new Snowflake({ layout: layouts.twitter, nodeId: (3 << 5) | 9 });
    expect(gen.node).toEqual({ datacenterId: 3, workerId: 9 });
    expect(gen.decode(gen.nextId())).toMatchObject({ datacenterId: 3, workerId: 9 });
  });
});

describe('ids are unique and strictly increasing', () => {
  test('GIVEN any sequence of clock steps and batch sizes THEN every id is greater than the last (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 3000 })), {
          maxLength: 30,
        }),
        fc.constantFrom<'wait' | 'borrow'>('wait', 'borrow'),
        (steps, sequenceOverflow) => {
          const clock = manualClock(T0, 0.01);
          const gen = new Snowflake({ workerId: 5, clock: clock.now, sequenceOverflow, maxBorrowMs: 3 });
          let prev = -1n;
          for (const [advance, n] of steps) {
            clock.advance(advance);
            const ids = n % 2 ? gen.nextIds(n) : Array.from({ length: n }, () => gen.nextId());
            expect(ids[0]! > prev).toBe(true);
            expect(strictlyIncreasing(ids)).toBe(true);
            prev = ids[ids.length - 1]!;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('GIVEN a burst of 20,000 ids in one ms (wait mode) THEN none repeats: it waits for the next ms', () => {
    const clock = manualClock(T0, 0.001); // 4096 ids take ~4 us of injected time per ms... so it must wait
    const gen = new Snowflake({ workerId: 1, clock: clock.now });
    const ids = gen.nextIds(20_000);
    expect(new Set(ids).size).toBe(20_000);
    expect(strictlyIncreasing(ids)).toBe(true);
    const last = gen.decode(ids.at(-1)!);
    expect(last.timestamp).toBeLessThanOrEqual(clock.current); // never ahead of the clock
  });

  test('GIVEN borrow mode and a frozen-ish clock THEN ids run ahead by at most maxBorrowMs', () => {
    // 0.002 ms per read: the batch path reads the clock about once per ms of ids, so time barely moves
    const clock = manualClock(T0, 0.002);
    const gen = new Snowflake({ workerId: 1, clock: clock.now, sequenceOverflow: 'borrow', maxBorrowMs: 5 });
    const ids = gen.nextIds(40_000); // ~10 ms worth at the cap
    expect(strictlyIncreasing(ids)).toBe(true);
    for (const id of [ids[0]!, ids.at(-1)!]) {
      expect(gen.decode(id).timestamp - Math.floor(clock.current)).toBeLessThanOrEqual(5 + 1);
    }
  });

  test('GIVEN sonyflake (sequence above machine) THEN ids increase and decode to the machine', () => {
    const clock = manualClock(T0, 0.01);
    const gen = new Snowflake({ layout: layouts.sonyflake, machineId: 4242, clock: clock.now });
    const ids = gen.nextIds(1000);
    expect(strictlyIncreasing(ids)).toBe(true);
    expect(ids.every((id) => gen.decode(id).machineId === 4242)).toBe(true);
  });
});

describe('clock policy', () => {
  test('GIVEN a clock that moves back 5 s THEN ClockMovedBackwardsError and nothing is issued', () => {
    const clock = manualClock(T0);
    const gen = new Snowflake({ workerId: 1, clock: clock.now });
    clock.advance(1);
    const before = gen.nextId();
    clock.set(T0 - 5000);
    const err = caught(() => gen.nextId());
    expect(err).toBeInstanceOf(ClockMovedBackwardsError);
    expect((err as ClockMovedBackwardsError).backwardsMs).toBe(5001);
    clock.set(T0 + 2);
    expect(gen.nextId() > before).toBe(true);
  });

  test('GIVEN a clock that moves back 5 ms (within tolerance) THEN ids keep increasing on the last ms', () => {
    const clock = manualClock(T0);
    const gen = new Snowflake({ workerId: 1, clock: clock.now });
    clock.advance(10);
    const a = gen.nextId();
    clock.set(T0 + 5);
    const b = gen.nextId();
    expect(b > a).toBe(true);
    expect(gen.decode(b).timestamp).toBe(T0 + 10);
  });

  test('GIVEN the clock passes the end of the timestamp field THEN TimestampOutOfRangeError, never a wrap', () => {
    const tiny = defineLayout({
      name: 'tiny',
      timestampBits: 4,
      nodeBits: { w: 2 },
      sequenceBits: 2,
      epoch: T0,
    });
    const clock = manualClock(T0 + 14);
    const gen = new Snowflake({ layout: tiny, w: 1, clock: clock.now });
    clock.advance(1);
    expect(gen.nextIds(4)).toHaveLength(4); // ms 15 is the last one
    clock.set(T0 + 16);
    expect(() => gen.nextId()).toThrow(TimestampOutOfRangeError);
    expect(() => gen.nextId()).toThrow(/past the end of layout "tiny"/);
  });

  test('GIVEN a clock before the epoch THEN TimestampOutOfRangeError', () => {
    const clock = manualClock(layouts.snowkey.epoch - 10);
    const gen = new Snowflake({ workerId: 1, clock: clock.now, clockRollbackToleranceMs: 0 });
    expect(() => gen.nextId()).toThrow(/before the epoch/);
  });
});

describe('restart guard', () => {
  test('GIVEN a generator created at T (wait mode) THEN its first id is after the ms it was created in', () => {
    const clock = manualClock(T0 + 0.3);
    const gen = new Snowflake({ workerId: 1, clock: clock.now });
    expect(gen.decode(gen.nextId()).timestamp).toBeGreaterThan(T0);
  });

  test('GIVEN borrow mode with maxBorrowMs 50 THEN the first id is after T + 50 ms (a previous life may have borrowed that far)', () => {
    const clock = manualClock(T0);
    const gen = new Snowflake({ workerId: 1, clock: clock.now, sequenceOverflow: 'borrow', maxBorrowMs: 50 });
    expect(gen.decode(gen.nextId()).timestamp).toBe(T0 + 51);
  });
});

describe('fence (leases)', () => {
  test('GIVEN a fence whose startAfter is 5 s ahead of the clock THEN ids start after it', () => {
    const clock = manualClock(T0);
    const fence: TimestampFence = { startAfter: T0 + 5000, permit: () => {} };
    const gen = new Snowflake({ workerId: 1, clock: clock.now, fence });
    const ids = gen.nextIds(100);
    expect(gen.decode(ids[0]!).timestamp).toBe(T0 + 5001);
  });

  test('GIVEN a lease whose previous holder ended in the past THEN a borrowing generator starts now and may borrow at once', () => {
    const clock = manualClock(T0 + 0.5);
    const fence: TimestampFence = { startAfter: T0 - 60_000, permit: () => {} };
    const gen = new Snowflake({
      workerId: 1,
      clock: clock.now,
      fence,
      sequenceOverflow: 'borrow',
      maxBorrowMs: 50,
    });
    const ids = gen.nextIds(4096 * 10); // ten ms worth while the clock stands still
    expect(gen.decode(ids[0]!).timestamp).toBe(T0);
    expect(gen.decode(ids.at(-1)!).timestamp).toBe(T0 + 9);
    expect(strictlyIncreasing(ids)).toBe(true);
  });

  test('GIVEN no lease and borrow mode THEN the same burst starts past the restart guard instead', () => {
    const clock = manualClock(T0 + 0.5);
    const gen = new Snowflake({ workerId: 1, clock: clock.now, sequenceOverflow: 'borrow', maxBorrowMs: 50 });
    expect(gen.decode(gen.nextId()).timestamp).toBe(T0 + 51);
  });

  test('GIVEN a fence that refuses THEN nothing is issued and the generator recovers once it permits', () => {
    const clock = manualClock(T0);
    let allowed = true;
    const seen: number[] = [];
    const fence: TimestampFence = {
      startAfter: 0,
      permit: (ms) => {
        if (!allowed) throw new LeaseExpiredError('lease expired', 1, ms);
      },
      observe: (ms) => seen.push(ms),
    };
    const gen = new Snowflake({ lease: { nodeId: 1, fence }, clock: clock.now });
    clock.advance(1);
    const a = gen.nextId();
    allowed = false;
    clock.advance(1);
    expect(() => gen.nextId()).toThrow(LeaseExpiredError);
    expect(() => gen.nextIds(10)).toThrow(LeaseExpiredError);
    allowed = true;
    const b = gen.nextId();
    expect(b > a).toBe(true);
    expect(seen).toEqual([T0 + 1, T0 + 2]);
  });
});

describe('modulo balance at low traffic', () => {
  test.each([2, 4, 8, 16, 3])('GIVEN exactly one id per ms THEN id mod %i is balanced', (n) => {
    const clock = manualClock(T0);
    const gen = new Snowflake({ workerId: 1, clock: clock.now });
    const counts = new Array(n).fill(0);
    const total = 2048 * 4;
    for (let i = 0; i < total; i++) {
      clock.advance(1);
      counts[Number(gen.nextId() % BigInt(n))]++;
    }
    const expected = total / n;
    for (const c of counts) expect(Math.abs(c - expected) / expected).toBeLessThan(0.02);
  });

  test.each([2, 3, 5, 10])('GIVEN sparse traffic at random gaps THEN id mod %i is balanced', (n) => {
    const clock = manualClock(T0);
    const gen = new Snowflake({ workerId: 1, clock: clock.now });
    const counts = new Array(n).fill(0);
    const total = 40_000;
    let seed = 42;
    for (let i = 0; i < total; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      clock.advance(1 + (seed % 7));
      counts[Number(gen.nextId() % BigInt(n))]++;
    }
    const expected = total / n;
    for (const c of counts) expect(Math.abs(c - expected) / expected).toBeLessThan(0.05);
  });

  test('GIVEN balanceModulo false THEN one id per ms is always even (the skew it prevents)', () => {
    const clock = manualClock(T0);
    const gen = new Snowflake({ workerId: 2, clock: clock.now, balanceModulo: false });
    for (let i = 0; i < 100; i++) {
      clock.advance(1);
      expect(gen.nextId() % 2n).toBe(0n);
    }
  });
});
