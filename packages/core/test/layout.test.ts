import { describe, expect, test } from 'vitest';
import { defineLayout, InvalidLayoutError, type Layout, layoutEndsAt, layouts } from '../src/index.js';
import { caught } from './caught.js';

describe('preset layouts', () => {
  test.each([
    // name, timestamp bits, node fields, sequence bits, unit, epoch, total, last instant
    ['snowkey', 41, 'workerId:10', 12, 1, 1735689600000, 63, '2094-09-07T15:47:35.551Z'],
    ['twitter', 41, 'datacenterId:5,workerId:5', 12, 1, 1288834974657, 63, '2080-07-10T17:30:30.208Z'],
    ['discord', 42, 'workerId:5,processId:5', 12, 1, 1420070400000, 64, '2154-05-15T07:35:11.103Z'],
    ['instagram', 41, 'shardId:13', 10, 1, 1314220021721, 64, '2081-04-30T12:54:37.272Z'],
    ['sonyflake', 39, 'machineId:16', 8, 10, 1409529600000, 63, '2188-11-16T03:28:58.879Z'],
    ['gameServer', 41, 'serverId:12', 10, 1, 1735689600000, 63, '2094-09-07T15:47:35.551Z'],
  ] as const)(
    'GIVEN preset %s THEN its fields, epoch and end date are as documented',
    (name, ts, nodes, seq, unit, epoch, total, end) => {
      const l: Layout = layouts[name];
      expect(l.name).toBe(name);
      expect(l.timestampBits).toBe(ts);
      expect(l.nodeFields.map((f) => `${f.name}:${f.bits}`).join(',')).toBe(nodes);
      expect(l.sequenceBits).toBe(seq);
      expect(l.timeUnitMs).toBe(unit);
      expect(l.epoch).toBe(epoch);
      expect(l.totalBits).toBe(total);
      expect(new Date(layoutEndsAt(l)).toISOString()).toBe(end);
    },
  );

  test('GIVEN layouts.default THEN it is the snowkey layout', () => {
    expect(layouts.default).toBe(layouts.snowkey);
  });

  test('GIVEN gameServer THEN it meets the merge requirements: >= 4096 servers, >= 1000 ids/ms, >= 60 years, signed', () => {
    const l = layouts.gameServer;
    expect(2 ** l.nodeBitsTotal).toBeGreaterThanOrEqual(4096);
    expect((l.maxSequence + 1) / l.timeUnitMs).toBeGreaterThanOrEqual(1000);
    expect((layoutEndsAt(l) - l.epoch) / (365.25 * 86400_000)).toBeGreaterThanOrEqual(60);
    expect(l.totalBits).toBeLessThanOrEqual(63);
  });

  test('GIVEN sonyflake THEN the sequence sits above the machine id', () => {
    expect(layouts.sonyflake.order).toBe('sequence-node');
    expect(layouts.sonyflake.sequenceShift).toBe(16);
    expect(layouts.sonyflake.nodeFields[0]?.shift).toBe(0);
  });
});

describe('defineLayout validation', () => {
  test('GIVEN the 37 + 20 + 16 = 73-bit game layout THEN it is refused naming each field and the total', () => {
    const attempt = () => defineLayout({ timestampBits: 37, nodeBits: { serverId: 20 }, sequenceBits: 16 });
    expect(attempt).toThrow(InvalidLayoutError);
    expect(attempt).toThrow('timestamp 37 + serverId 20 + sequence 16 = 73');
    const err = caught(attempt) as InvalidLayoutError;
    expect(err.totalBits).toBe(73);
    expect(err.fields.map((f) => f.name)).toEqual(['timestamp', 'serverId', 'sequence']);
  });

  test('GIVEN 64 bits without unsigned THEN the error says ids would not fit a signed BIGINT', () => {
    expect(() => defineLayout({ timestampBits: 42, nodeBits: { workerId: 10 }, sequenceBits: 12 })).toThrow(
      /2\^63-1.*signed BIGINT.*= 64/,
    );
    const l = defineLayout({
      timestampBits: 42,
      nodeBits: { workerId: 10 },
      sequenceBits: 12,
      unsigned: true,
    });
    expect(l.unsigned).toBe(true);
  });

  test.each([
    ['zero width', { timestampBits: 0, nodeBits: { a: 1 }, sequenceBits: 1 }, 'timestamp'],
    ['negative width', { timestampBits: 41, nodeBits: { workerId: -2 }, sequenceBits: 12 }, 'workerId'],
    ['fractional width', { timestampBits: 41, nodeBits: {}, sequenceBits: 1.5 }, 'sequence'],
    ['string width', { timestampBits: '41', nodeBits: {}, sequenceBits: 12 }, 'timestamp'],
  ])('GIVEN a %s THEN InvalidLayoutError names the field', (_case, spec, field) => {
    expect(() => defineLayout(spec as never)).toThrow(
      new RegExp(`"${field}" must be a positive integer width`),
    );
  });

  test.each([
    ['id', /reserved: it is a part every decoded id has/],
    ['sequence', /reserved: it is a part every decoded id has/],
    ['timestamp', /reserved: it is a part every decoded id has/],
    ['date', /reserved: it is a part every decoded id has/],
    ['clock', /reserved: it is an option of new Snowflake\(\)/],
    ['nodeId', /reserved: it is an option of new Snowflake\(\)/],
    ['lease', /reserved: it is an option of new Snowflake\(\)/],
    ['constructor', /reserved: it is a property every JavaScript object inherits/],
    ['toString', /reserved: it is a property every JavaScript object inherits/],
    ['hasOwnProperty', /reserved: it is a property every JavaScript object inherits/],
    ['valueOf', /reserved: it is a property every JavaScript object inherits/],
    ['__proto__', /reserved: it is a property every JavaScript object inherits/],
    ['has space', /must be a unique identifier/],
  ])('GIVEN a node field named %j THEN InvalidLayoutError says why', (name, why) => {
    // The array form, so that even "__proto__" reaches defineLayout as a name (an object literal
    // would turn it into the prototype); JSON.parse makes it an own key, which is refused the same way.
    const asArray = () => defineLayout({ timestampBits: 41, nodeBits: [[name, 5]], sequenceBits: 12 });
    const asParsedJson = () =>
      defineLayout({ timestampBits: 41, nodeBits: JSON.parse(`{"${name}": 5}`), sequenceBits: 12 });
    for (const attempt of [asArray, asParsedJson]) {
      expect(attempt).toThrow(InvalidLayoutError);
      expect(attempt).toThrow(why);
    }
  });

  test('GIVEN duplicate node names in array form THEN refused', () => {
    expect(() =>
      defineLayout({
        timestampBits: 41,
        nodeBits: [
          ['w', 5],
          ['w', 5],
        ],
        sequenceBits: 12,
      }),
    ).toThrow(/unique/);
  });

  test('GIVEN node fields in array form THEN they are ordered high to low', () => {
    const l = defineLayout({
      timestampBits: 41,
      nodeBits: [
        ['dc', 3],
        ['worker', 7],
      ],
      sequenceBits: 12,
    });
    expect(l.nodeFields.map((f) => [f.name, f.shift, f.max])).toEqual([
      ['dc', 19, 7],
      ['worker', 12, 127],
    ]);
    expect(l.timestampShift).toBe(22);
  });
});
