import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  composeId,
  decode,
  defineLayout,
  InvalidArgumentError,
  idRangeForTime,
  type Layout,
  layoutEndsAt,
  layouts,
  manualClock,
  Snowflake,
  TimestampOutOfRangeError,
} from '../src/index.js';
import { caught } from './caught.js';

const ALL_LAYOUTS: Layout[] = Object.values(layouts);
const T = Date.UTC(2026, 2, 1, 12, 0, 0, 0);

/** Every low bit set: the largest node ids and sequence a layout has. */
function top(layout: Layout, timestamp: number): bigint {
  const parts: Record<string, number> = { timestamp, sequence: layout.maxSequence };
  for (const f of layout.nodeFields) parts[f.name] = f.max;
  return composeId(parts as never, layout);
}

function bottom(layout: Layout, timestamp: number): bigint {
  const parts: Record<string, number> = { timestamp, sequence: 0 };
  for (const f of layout.nodeFields) parts[f.name] = 0;
  return composeId(parts as never, layout);
}

describe('idRangeForTime at the millisecond edges', () => {
  test.each(ALL_LAYOUTS.filter((l) => l.timeUnitMs === 1).map((l) => [l.name, l] as const))(
    'GIVEN layout %s and from..to THEN minId is the first id at from, maxId the last at to, and the ids 1 ms outside are outside',
    (_name, layout) => {
      const from = T;
      const to = T + 60_000;
      const { minId, maxId } = idRangeForTime(new Date(from), new Date(to), { layout });
      expect(minId).toBe(bottom(layout, from));
      expect(maxId).toBe(top(layout, to));
      expect(top(layout, from - 1)).toBe(minId - 1n);
      expect(bottom(layout, to + 1)).toBe(maxId + 1n);
      expect(decode(minId, { layout }).timestamp).toBe(from);
      expect(decode(maxId, { layout }).timestamp).toBe(to);
    },
  );

  test('GIVEN from = to THEN the range is the ids of that one millisecond', () => {
    const { minId, maxId } = idRangeForTime(T, T, { layout: layouts.snowkey });
    expect(maxId - minId + 1n).toBe(1n << 22n);
    expect(decode(minId, { layout: layouts.snowkey }).timestamp).toBe(T);
    expect(decode(maxId, { layout: layouts.snowkey })).toMatchObject({
      timestamp: T,
      workerId: 1023,
      sequence: 4095,
    });
  });

  test('GIVEN ids a generator issues (injected clock) at from-1, from, to, to+1 THEN exactly the middle two are in range', () => {
    const clock = manualClock(T - 10);
    const gens = [0, 1023].map((workerId) => new Snowflake({ workerId, clock: clock.now }));
    const at = (ms: number) => {
      clock.set(ms);
      return gens.map((g) => g.nextId());
    };
    const before = at(T - 1);
    const first = at(T);
    const last = at(T + 5000);
    const after = at(T + 5001);
    const { minId, maxId } = idRangeForTime(T, T + 5000, { layout: layouts.snowkey });
    const inRange = (id: bigint) => id >= minId && id <= maxId;
    expect([...before, ...after].filter(inRange)).toEqual([]);
    expect([...first, ...last].every(inRange)).toBe(true);
  });

  test('GIVEN the first and the last instant of a layout THEN the range spans every id of it', () => {
    const layout = layouts.gameServer;
    const { minId, maxId } = idRangeForTime(layout.epoch, layoutEndsAt(layout), { layout });
    expect(minId).toBe(0n);
    expect(maxId).toBe((1n << 63n) - 1n);
  });

  test('GIVEN an unsigned layout (discord) near its end THEN maxId passes 2^63-1 and stays within 64 bits', () => {
    const end = layoutEndsAt(layouts.discord);
    const { maxId } = idRangeForTime(end - 1, end, { layout: layouts.discord });
    expect(maxId).toBe((1n << 64n) - 1n);
  });

  test('GIVEN an epoch option THEN the range is that of the layout with that epoch', () => {
    const epoch = Date.UTC(2026, 0, 1);
    const { minId } = idRangeForTime(epoch, epoch + 1, { layout: layouts.snowkey, epoch });
    expect(minId).toBe(0n);
  });
});

describe('idRangeForTime with a coarser time unit (sonyflake, 10 ms)', () => {
  test('GIVEN from and to inside their units THEN both ends round outward to whole units', () => {
    const layout = layouts.sonyflake;
    const from = layout.epoch + 1234567895; // unit 123456789, its 6th ms
    const to = layout.epoch + 1234567901; // unit 123456790, its 2nd ms
    const { minId, maxId } = idRangeForTime(from, to, { layout });
    expect(minId).toBe(123456789n << 24n);
    expect(maxId).toBe((123456791n << 24n) - 1n);
    expect(decode(minId, { layout }).timestamp).toBe(layout.epoch + 1234567890);
  });
});

describe('idRangeForTime properties', () => {
  const customLayouts = fc
    .record({
      timestampBits: fc.integer({ min: 20, max: 44 }),
      nodeBits: fc.integer({ min: 1, max: 10 }),
      sequenceBits: fc.integer({ min: 1, max: 9 }),
      timeUnitMs: fc.constantFrom(1, 1, 10, 7),
      order: fc.constantFrom('node-sequence' as const, 'sequence-node' as const),
      epoch: fc.integer({ min: 0, max: Date.UTC(2030, 0, 1) }),
    })
    .map((s) => defineLayout({ ...s, nodeBits: { workerId: s.nodeBits } }) as Layout);
  const anyLayout = fc.oneof(fc.constantFrom(...ALL_LAYOUTS), customLayouts);

  /** A layout, from <= to in its range, and an id whose time is near one of the edges. */
  const cases = anyLayout.chain((layout) => {
    const first = layout.epoch;
    const last = layoutEndsAt(layout);
    return fc
      .tuple(fc.integer({ min: first, max: last }), fc.integer({ min: first, max: last }))
      .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const)
      .chain(([from, to]) =>
        fc.record({
          layout: fc.constant(layout),
          from: fc.constant(from),
          to: fc.constant(to),
          idTime: fc
            .oneof(
              fc.constantFrom(from - 1, from, to, to + 1),
              fc.integer({ min: from - 3 * layout.timeUnitMs, max: from + 3 * layout.timeUnitMs }),
              fc.integer({ min: to - 3 * layout.timeUnitMs, max: to + 3 * layout.timeUnitMs }),
              fc.integer({ min: first, max: last }),
            )
            .filter((t) => t >= first && t <= last),
          low: fc.bigInt({ min: 0n, max: (1n << BigInt(layout.timestampShift)) - 1n }),
        }),
      );
  });

  test('GIVEN any layout, range and id THEN the id is in minId..maxId exactly when its time unit meets from..to', () => {
    fc.assert(
      fc.property(cases, ({ layout, from, to, idTime, low }) => {
        const { minId, maxId } = idRangeForTime(from, to, { layout });
        const unit = Math.floor((idTime - layout.epoch) / layout.timeUnitMs);
        const id = (BigInt(unit) << BigInt(layout.timestampShift)) | low;
        const start = decode(id, { layout }).timestamp;
        const end = start + layout.timeUnitMs - 1;
        const meets = start <= to && end >= from;
        expect(id >= minId && id <= maxId).toBe(meets);
        if (layout.timeUnitMs === 1) expect(meets).toBe(start >= from && start <= to);
      }),
      { numRuns: 2000 },
    );
  });

  test('GIVEN any range of a 1 ms layout THEN the ids at from-1 and to+1 (any node, any sequence) are outside, those at from and to inside', () => {
    const oneMs = cases.filter(
      ({ layout, from, to }) => layout.timeUnitMs === 1 && from > layout.epoch && to < layoutEndsAt(layout),
    );
    fc.assert(
      fc.property(oneMs, ({ layout, from, to }) => {
        const { minId, maxId } = idRangeForTime(from, to, { layout });
        expect(top(layout, from - 1)).toBeLessThan(minId);
        expect(bottom(layout, to + 1)).toBeGreaterThan(maxId);
        expect(bottom(layout, from)).toBe(minId);
        expect(top(layout, to)).toBe(maxId);
      }),
      { numRuns: 500 },
    );
  });
});

describe('idRangeForTime input validation', () => {
  const layout = layouts.snowkey;

  test('GIVEN from after to THEN InvalidArgumentError names "to" and what it expected', () => {
    const err = caught(() => idRangeForTime(T + 1, T, { layout }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'SNOWKEY_INVALID_ARGUMENT', argument: 'to', received: T });
    expect((err as Error).message).toBe(
      `"to" must be a time at or after "from" (2026-03-01T12:00:00.001Z) (received ${T})`,
    );
  });

  test.each([
    ['from', layout.epoch - 1, 'before the epoch'],
    ['to', layoutEndsAt(layout) + 1, 'past the end'],
  ] as const)(
    'GIVEN "%s" outside the layout (%s) THEN TimestampOutOfRangeError names it',
    (argument, ms, what) => {
      const args = argument === 'from' ? ([ms, T] as const) : ([T, ms] as const);
      const err = caught(() => idRangeForTime(args[0], args[1], { layout }));
      expect(err).toBeInstanceOf(TimestampOutOfRangeError);
      expect(err).toMatchObject({
        code: 'SNOWKEY_TIMESTAMP_OUT_OF_RANGE',
        argument,
        timestamp: ms,
        minTimestamp: layout.epoch,
        maxTimestamp: layoutEndsAt(layout),
      });
      expect((err as Error).message).toContain(`"${argument}": timestamp`);
      expect((err as Error).message).toContain(what);
    },
  );

  test.each([
    ['an ISO string', '2026-03-01T00:00:00Z'],
    ['an invalid Date', new Date('nope')],
    ['a fraction', T + 0.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a bigint', BigInt(T)],
    ['null', null],
    ['undefined', undefined],
  ])('GIVEN from as %s THEN InvalidArgumentError names "from" and what it got', (_what, value) => {
    const err = caught(() => idRangeForTime(value as never, T, { layout }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'SNOWKEY_INVALID_ARGUMENT', argument: 'from', received: value });
    expect((err as Error).message).toContain('a valid Date or an integer of ms since 1970');
  });

  test('GIVEN no layout THEN InvalidArgumentError names options.layout', () => {
    const err = caught(() => idRangeForTime(T, T, { layout: 'snowkey' as never }));
    expect(err).toMatchObject({ argument: 'options.layout' });
    expect(caught(() => idRangeForTime(T, T, null as never))).toMatchObject({ argument: 'options' });
  });
});
