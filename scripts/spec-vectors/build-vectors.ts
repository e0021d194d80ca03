import {
  composeId,
  decode,
  defineLayout,
  idRangeForTime,
  type Layout,
  layoutEndsAt,
  layouts,
  manualClock,
  publicIdCodec,
  Snowflake,
} from '@snowkey/core';
import { sipHash24, sipKey } from '../../packages/core/src/public-id/siphash.js';
import type { SnowflakeCommonOptions } from '../../packages/core/src/snowflake.js';

// The test vectors of packages/core/SPEC.md, computed by core itself. `pnpm vectors` writes them
// to packages/core/vectors.json; test/spec/vectors.test.ts checks that the file is what this
// computes, so the shipped vectors cannot drift from the code.

/** The key of the public-id vectors: bytes 00 01 .. 0f. Never use it for anything else. */
export const VECTOR_KEY = '000102030405060708090a0b0c0d0e0f';

/** A layout as data: every number an implementation needs to read and write its ids. */
function layoutVector(layout: Layout) {
  return {
    name: layout.name,
    totalBits: layout.totalBits,
    timestampBits: layout.timestampBits,
    timestampShift: layout.timestampShift,
    nodeFields: layout.nodeFields.map((f) => ({ name: f.name, bits: f.bits, shift: f.shift })),
    sequenceBits: layout.sequenceBits,
    sequenceShift: layout.sequenceShift,
    order: layout.order,
    timeUnitMs: layout.timeUnitMs,
    epoch: layout.epoch,
    epochIso: new Date(layout.epoch).toISOString(),
    lastInstant: layoutEndsAt(layout),
    unsigned: layout.unsigned,
  };
}

/** Sonyflake's order, with a 7 ms unit and three node fields: the layout least like the others. */
const odd = defineLayout({
  name: 'odd',
  timestampBits: 40,
  nodeBits: { regionId: 3, zoneId: 4, hostId: 6 },
  sequenceBits: 9,
  timeUnitMs: 7,
  epoch: Date.UTC(2020, 1, 29),
  order: 'sequence-node',
});

/** A 2-bit sequence, so a generator trace uses one up in a few ids. */
const tiny = defineLayout({ name: 'tiny', timestampBits: 41, nodeBits: { workerId: 10 }, sequenceBits: 2 });

const LAYOUTS: readonly Layout[] = [...new Set(Object.values(layouts)), odd, tiny];

/** Node fields all at `value(field)`. */
function nodes(layout: Layout, value: (max: number, index: number) => number): Record<string, number> {
  return Object.fromEntries(layout.nodeFields.map((f, i) => [f.name, value(f.max, i)]));
}

/** The parts of the id vectors of a layout: its extremes and values that show every field's place. */
function idParts(layout: Layout) {
  const unit = layout.timeUnitMs;
  const last = layoutEndsAt(layout);
  return [
    { timestamp: layout.epoch, sequence: 0, ...nodes(layout, () => 0) },
    { timestamp: layout.epoch + unit, sequence: 0, ...nodes(layout, () => 0) },
    { timestamp: layout.epoch, sequence: 1, ...nodes(layout, () => 0) },
    ...layout.nodeFields.map((f) => ({
      timestamp: layout.epoch,
      sequence: 0,
      ...nodes(layout, () => 0),
      [f.name]: 1,
    })),
    {
      timestamp: Date.UTC(2026, 2, 14, 15, 9, 26, 535),
      sequence: Math.min(271, layout.maxSequence),
      ...nodes(layout, (max, i) => Math.min(max, 5 + 3 * i)),
    },
    { timestamp: last, sequence: layout.maxSequence, ...nodes(layout, (max) => max) },
  ].filter((p) => p.timestamp >= layout.epoch && p.timestamp <= last);
}

function idVector(layout: Layout, id: bigint) {
  const { id: _id, date, timestamp, sequence, ...fields } = decode(id, { layout });
  return {
    layout: layout.name,
    id: id.toString(),
    hex: `0x${id.toString(16).padStart(16, '0')}`,
    timestamp,
    date: date.toISOString(),
    timeUnits: (timestamp - layout.epoch) / layout.timeUnitMs,
    sequence,
    nodeFields: fields as Record<string, number>,
  };
}

/** Ids published by their makers, decoded. */
const PUBLISHED: readonly [Layout, bigint][] = [
  [layouts.discord, 175928847299117063n], // Discord's API reference
  [layouts.twitter, 204697221847986177n], // a tweet of 2012-05-21
  [layouts.instagram, (1387263000n << 23n) | (1341n << 10n) | 1001n], // Instagram's engineering blog
];

function timeRangeVectors() {
  const cases: [Layout, number, number][] = [
    [layouts.snowkey, Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 31, 23, 59, 59, 999)],
    [layouts.snowkey, Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 1)],
    [layouts.snowkey, layoutEndsAt(layouts.snowkey), layoutEndsAt(layouts.snowkey)],
    [layouts.sonyflake, Date.UTC(2026, 2, 1, 0, 0, 0, 5), Date.UTC(2026, 2, 1, 0, 0, 1, 1)],
  ];
  return cases.map(([layout, from, to]) => {
    const { minId, maxId } = idRangeForTime(from, to, { layout });
    return {
      layout: layout.name,
      from,
      to,
      fromIso: new Date(from).toISOString(),
      toIso: new Date(to).toISOString(),
      minId: minId.toString(),
      maxId: maxId.toString(),
    };
  });
}

/**
 * What a generator issues for a list of clock readings: the first reading is at construction.
 * `null` where the call throws (the error's name instead of an id).
 */
function trace(
  title: string,
  layout: Layout,
  node: Record<string, number>,
  options: SnowflakeCommonOptions<string>,
  readings: readonly number[],
) {
  const clock = manualClock(readings[0]!);
  const gen = new Snowflake({ layout, ...node, ...options, clock: clock.now } as never);
  const steps = readings.slice(1).map((at) => {
    clock.set(at);
    try {
      const id = gen.nextId();
      const { timestamp, sequence } = decode(id, { layout });
      return { clock: at, id: id.toString(), timestamp, sequence };
    } catch (err) {
      return { clock: at, error: (err as Error).name };
    }
  });
  return {
    title,
    layout: layout.name,
    nodeFields: node,
    options: {
      sequenceOverflow: options.sequenceOverflow ?? 'wait',
      maxBorrowMs: options.maxBorrowMs ?? 1000,
      clockRollbackToleranceMs: options.clockRollbackToleranceMs ?? 10,
      balanceModulo: options.balanceModulo ?? true,
    },
    createdAt: readings[0]!,
    steps,
  };
}

const T = Date.UTC(2026, 2, 14, 15, 9, 26, 0);

function generatorTraces() {
  return [
    trace(
      'restart guard, same-unit sequence, modulo balance, a clock back within tolerance, then beyond it',
      layouts.snowkey,
      { workerId: 5 },
      {},
      [T, T, T + 1, T + 1, T + 1, T + 5, T + 3, T + 3, T + 6, T + 20, T - 20],
    ),
    // (one more id at T + 3 would wait for the clock: a vector never waits)
    trace(
      'a 2-bit sequence used up, borrowing up to 2 ms ahead',
      tiny,
      { workerId: 1 },
      { sequenceOverflow: 'borrow', maxBorrowMs: 2 },
      [T, ...Array.from({ length: 12 }, () => T + 3), T + 4, T + 4],
    ),
    trace(
      'a 10 ms unit (sonyflake): readings within a unit share it',
      layouts.sonyflake,
      { machineId: 258 },
      {},
      [T, T + 5, T + 10, T + 19, T + 25],
    ),
    trace('the end of the layout: the last unit, then refused', layouts.snowkey, { workerId: 1023 }, {}, [
      layoutEndsAt(layouts.snowkey) - 2,
      layoutEndsAt(layouts.snowkey),
      layoutEndsAt(layouts.snowkey),
      layoutEndsAt(layouts.snowkey) + 1,
    ]),
    trace(
      'modulo balance off: every unit starts its sequence at 0',
      layouts.snowkey,
      { workerId: 5 },
      { balanceModulo: false },
      [T, T + 1, T + 1, T + 2, T + 3],
    ),
  ];
}

/** The SipHash-2-4 keys a codec derives (SPEC.md, "Key derivation"), as 16 bytes in hex. */
function derivedKeys(master: string, entity: string) {
  const key = sipKey(Uint8Array.from(Buffer.from(master, 'hex')));
  const domain = new TextEncoder().encode('snowkey/public-id/v2');
  const tweak = new TextEncoder().encode(entity);
  const prf = (i: number, j: number): Buffer => {
    const message = new Uint8Array([...domain, 0, i, j, ...tweak]);
    const out = new Uint32Array(2);
    sipHash24(key, message, out);
    const bytes = Buffer.alloc(8);
    bytes.writeBigUInt64LE((BigInt(out[0]!) << 32n) | BigInt(out[1]!));
    return bytes;
  };
  const pair = (i: number) => Buffer.concat([prf(i, 0), prf(i, 1)]).toString('hex');
  return { rounds: Array.from({ length: 10 }, (_, i) => pair(i)), check: pair(0xfe) };
}

/**
 * SipHash-2-4 under the reference key 00 01 .. 0f of messages 00, 00 01, .., 00 01 .. 0e: the
 * first 16 vectors of the reference implementation (the 15-byte one is the paper's example).
 */
function sipHashVectors() {
  const key = sipKey(Uint8Array.from({ length: 16 }, (_, i) => i));
  return Array.from({ length: 16 }, (_, n) => {
    const message = Uint8Array.from({ length: n }, (_, i) => i);
    const out = new Uint32Array(2);
    sipHash24(key, message, out);
    return {
      message: Buffer.from(message).toString('hex'),
      hash: `0x${((BigInt(out[0]!) << 32n) | BigInt(out[1]!)).toString(16).padStart(16, '0')}`,
    };
  });
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The permuted value a public id's eleven digits hold. */
function permutedOf(publicId: string): bigint {
  let v = 0n;
  for (const c of publicId.slice(1, 12)) v = v * 61n + BigInt(ALPHABET.indexOf(c));
  return v;
}

/** A public id with its typo check recomputed: a string that passes the key-free check. */
function withTypoCheck(body13: string): string {
  let sum = 0;
  for (let j = 0; j < 13; j++) sum += (j + 2) * ALPHABET.indexOf(body13[j]!);
  return body13 + ALPHABET[(61 - (sum % 61)) % 61];
}

function publicIdVectors() {
  const ids = [1n, 2n, 3n, 175928847299117063n, 2n ** 53n + 1n, 2n ** 62n, 2n ** 63n - 1n];
  const codecs = [
    { entity: 'order', keyId: 0 },
    { entity: 'player', keyId: 0 },
    { entity: 'order', keyId: 7 },
    { entity: '注文', keyId: 60 },
  ];
  const valid = codecs.flatMap(({ entity, keyId }) => {
    const codec = publicIdCodec({ key: VECTOR_KEY, entity, keyId });
    return ids.map((id) => {
      const publicId = codec.encode(id);
      return {
        entity,
        keyId,
        id: id.toString(),
        publicId,
        permuted: permutedOf(publicId).toString(),
        keyedCheck: ALPHABET.indexOf(publicId[12]!),
        typoCheck: ALPHABET.indexOf(publicId[13]!),
      };
    });
  });

  const orders = publicIdCodec({ key: VECTOR_KEY, entity: 'order' });
  const good = orders.encode(175928847299117063n);
  const swap = `${good.slice(0, 3)}${good[4]}${good[3]}${good.slice(5)}`;
  const typo = `${good.slice(0, 13)}${ALPHABET[(ALPHABET.indexOf(good[13]!) + 1) % 61]}`;
  const players = publicIdCodec({ key: VECTOR_KEY, entity: 'player' });
  // Another entity's public id: fails the keyed check 60 times in 61; take the first that does.
  const foreign = ids.map((id) => players.encode(id)).find((p) => !orders.is(p))!;
  const tooLarge = withTypoCheck(`0${'z'.repeat(11)}0`); // 61^11 - 1 > 2^63 - 1
  const otherKeyId = withTypoCheck(`5${good.slice(1, 13)}`);
  const fault = (publicId: string) => {
    try {
      orders.decode(publicId);
      return 'none';
    } catch (err) {
      return (err as { fault: string }).fault;
    }
  };
  const invalid = [
    ['a character changed', typo],
    ['two neighbours swapped', swap],
    ['13 characters', good.slice(0, 13)],
    ['15 characters', `${good}0`],
    ['a lowercase L', `${good.slice(0, 5)}l${good.slice(6)}`],
    ['an uppercase copy', good.toUpperCase()],
    ['a public id of entity "player" under the same key', foreign],
    ['a value of 2^63 or more', tooLarge],
    ['key id 5, which the codec does not hold', otherKeyId],
  ].map(([what, publicId]) => ({
    what: what!,
    entity: 'order',
    publicId: publicId!,
    fault: fault(publicId!),
  }));

  return {
    key: VECTOR_KEY,
    alphabet: ALPHABET,
    sipHash: sipHashVectors(),
    derivedKeys: Object.fromEntries(
      [...new Set(codecs.map((c) => c.entity))].map((e) => [e, derivedKeys(VECTOR_KEY, e)]),
    ),
    valid,
    invalid,
  };
}

/**
 * Every vector of the spec, as the JSON object written to packages/core/vectors.json.
 *
 * @example
 * JSON.stringify(specVectors(), null, 2);
 */
export function specVectors() {
  return {
    $comment:
      'Test vectors of @snowkey/core (SPEC.md in the package). Generated by scripts/spec-vectors from core: do not edit. Ids are decimal strings; times are ms since 1970 (UTC).',
    version: 1,
    layouts: LAYOUTS.map(layoutVector),
    ids: [
      ...LAYOUTS.flatMap((layout) =>
        idParts(layout).map((p) => idVector(layout, composeId(p as never, layout))),
      ),
      ...PUBLISHED.map(([layout, id]) => idVector(layout, id)),
    ],
    timeRanges: timeRangeVectors(),
    generator: generatorTraces(),
    publicIds: publicIdVectors(),
  };
}
