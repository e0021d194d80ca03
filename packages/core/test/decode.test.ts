import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  composeId,
  decode,
  InvalidArgumentError,
  InvalidIdError,
  type Layout,
  layouts,
} from '../src/index.js';
import { caught } from './caught.js';

describe('decode against published values', () => {
  test("GIVEN Discord's documented id 175928847299117063 THEN 2016-04-30T11:18:25.796Z, worker 1, process 0, increment 7", () => {
    const d = decode('175928847299117063', { layout: layouts.discord });
    expect(d.date.toISOString()).toBe('2016-04-30T11:18:25.796Z');
    expect(d).toMatchObject({ id: 175928847299117063n, workerId: 1, processId: 0, sequence: 7 });
  });

  test('GIVEN tweet 204697221847986177 (snowflake2time test: 2012-05-21 22:16:35 UTC) THEN the same second', () => {
    const d = decode(204697221847986177n, { layout: layouts.twitter });
    expect(Math.floor(d.timestamp / 1000)).toBe(1337638595);
    expect(d.date.toISOString().slice(0, 19)).toBe('2012-05-21T22:16:35');
  });

  test("GIVEN Instagram's blog example (1387263000 ms after epoch, shard 1341, sequence 5001 % 1024) THEN decoded back", () => {
    const id = (1387263000n << 23n) | (1341n << 10n) | 1001n;
    const d = decode(id, { layout: layouts.instagram });
    expect(d).toMatchObject({ shardId: 1341, sequence: 1001, timestamp: 1314220021721 + 1387263000 });
  });

  test("GIVEN Sonyflake's composition (time << 24 | sequence << 16 | machine) THEN each part decodes", () => {
    const id = (123456789n << 24n) | (7n << 16n) | 4242n;
    const d = decode(id, { layout: layouts.sonyflake });
    expect(d).toMatchObject({ machineId: 4242, sequence: 7, timestamp: 1409529600000 + 1234567890 });
  });
});

describe('decode input validation', () => {
  test.each([
    ['non-digits', '12a'],
    ['a sign', '-1'],
    ['a plus sign', '+1'],
    ['leading zero', '012'],
    ['spaces', ' 12'],
    ['a fraction string', '1.5'],
    ['a fraction', 1.5],
    ['a negative number', -1],
    ['a negative bigint', -1n],
    ['an unsafe number', 2 ** 53],
    ['NaN', Number.NaN],
    ['2^64', '18446744073709551616'],
    ['null', null],
    ['undefined', undefined],
    ['an object', { id: 1 }],
    ['an empty string', ''],
  ])('GIVEN %s THEN InvalidIdError names what it got', (_what, value) => {
    const err = caught(() => decode(value as never, { layout: layouts.snowkey }));
    expect(err).toBeInstanceOf(InvalidIdError);
    expect((err as InvalidIdError).argument).toBe('id');
    expect((err as Error).message).toContain('received');
  });

  test('GIVEN an id wider than a signed layout THEN refused naming the layout', () => {
    expect(() => decode(2n ** 63n, { layout: layouts.snowkey })).toThrow(
      /in 0\.\.2\^63-1 \(an id of layout "snowkey"\)/,
    );
  });

  test('GIVEN an epoch override THEN the timestamp moves with it', () => {
    const id = composeId(
      { timestamp: layouts.snowkey.epoch + 1000, sequence: 0, workerId: 1 },
      layouts.snowkey,
    );
    expect(decode(id, { layout: layouts.snowkey, epoch: 0 }).timestamp).toBe(1000);
  });

  test('GIVEN bigint, string and safe number forms of one id THEN all decode alike', () => {
    const n = 123456789012345;
    const a = decode(n, { layout: layouts.snowkey });
    expect(decode(String(n), { layout: layouts.snowkey })).toEqual(a);
    expect(decode(BigInt(n), { layout: layouts.snowkey })).toEqual(a);
  });
});

describe('decode and composeId options validation', () => {
  const parts = { timestamp: layouts.snowkey.epoch, sequence: 0, workerId: 1 };
  test.each([
    ['decode without options', 'options', () => decode(1n, undefined as never)],
    ['decode with a null layout', 'layout', () => decode(1n, { layout: null as never })],
    ['decode with a layout name string', 'layout', () => decode(1n, { layout: 'snowkey' as never })],
    ['composeId with a missing layout', 'layout', () => composeId(parts, undefined as never)],
    ['composeId with null parts', 'parts', () => composeId(null as never, layouts.snowkey)],
  ])('GIVEN %s THEN InvalidArgumentError names "%s"', (_given, argument, call) => {
    const err = caught(call);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe(argument);
    expect((err as Error).message).toContain('received');
  });
});

describe('compose/decode round trip (property)', () => {
  test.each(Object.keys(layouts) as (keyof typeof layouts)[])(
    'GIVEN any valid parts of %s THEN decode(compose(parts)) returns them',
    (name) => {
      const layout: Layout = layouts[name];
      const nodeArbs = Object.fromEntries(
        layout.nodeFields.map((f) => [f.name, fc.integer({ min: 0, max: f.max })]),
      );
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: layout.maxTimestamp }),
          fc.integer({ min: 0, max: layout.maxSequence }),
          fc.record(nodeArbs),
          (ticks, sequence, nodes) => {
            const timestamp = layout.epoch + ticks * layout.timeUnitMs;
            const id = composeId({ timestamp, sequence, ...nodes }, layout);
            const d = decode(id, { layout });
            expect(d.timestamp).toBe(timestamp);
            expect(d.sequence).toBe(sequence);
            for (const [k, v] of Object.entries(nodes)) expect(d[k]).toBe(v);
            expect(decode(id.toString(), { layout })).toEqual(d);
          },
        ),
      );
    },
  );
});
