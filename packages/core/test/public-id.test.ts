import fc from 'fast-check';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { MAX_KEY } from '../src/adapter.js';
import {
  InvalidArgumentError,
  InvalidIdError,
  InvalidPublicIdError,
  layouts,
  type PublicId,
  publicIdCodec,
  Snowflake,
} from '../src/index.js';
import { deriveKeys, permute, unpermute } from '../src/public-id/feistel.js';
import { PUBLIC_ID_ALPHABET, readPublicId } from '../src/public-id/public-id-text.js';
import { caught } from './caught.js';
import { referencePublicId } from './public-id-reference.js';

const KEY = '000102030405060708090a0b0c0d0e0f';
const orders = publicIdCodec({ key: KEY, entity: 'order' });
const players = publicIdCodec({ key: KEY, entity: 'player' });
const anyKey = fc.bigInt({ min: 1n, max: MAX_KEY });

describe('publicIdCodec: round trip and bijection', () => {
  test('GIVEN any key THEN decode(encode(id)) is the id, and the public id is 14 alphabet characters', () => {
    fc.assert(
      fc.property(anyKey, (id) => {
        const pid = orders.encode(id);
        expect(pid).toMatch(/^0[0-9A-Za-km-z]{13}$/); // key id 0, the default
        expect(orders.decode(pid)).toBe(id);
        expect(orders.is(pid)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  test.each([
    ['1', 1n],
    ['2^53+1', 2n ** 53n + 1n],
    ['2^63-1', MAX_KEY],
  ])('GIVEN the edge key %s THEN it round-trips', (_what, id) => {
    expect(orders.decode(orders.encode(id))).toBe(id);
  });

  test('GIVEN 200,000 sequential keys and a real generator burst THEN every public id differs (no collisions)', () => {
    const seen = new Set<string>();
    for (let id = 1n; id <= 100_000n; id++) seen.add(orders.encode(id));
    let t = Date.UTC(2026, 0, 1);
    const gen = new Snowflake({ layout: layouts.default, workerId: 3, clock: () => t++ });
    for (const id of gen.nextIds(100_000)) seen.add(orders.encode(id));
    expect(seen.size).toBe(200_000);
  });

  test('GIVEN any 63-bit value, 0 and 2^63-1 included THEN the Feistel permutation is undone exactly', () => {
    const { rounds } = deriveKeys(new Uint8Array(16).fill(7), new TextEncoder().encode('t'));
    const out = new Uint32Array(2);
    const back = new Uint32Array(2);
    const check = (hi: number, lo: number) => {
      permute(rounds, hi, lo, out);
      expect(out[0]).toBeLessThan(2 ** 31);
      unpermute(rounds, out[0]!, out[1]!, back);
      expect([back[0], back[1]]).toEqual([hi, lo]);
    };
    check(0, 0);
    check(0x7fffffff, 0xffffffff);
    fc.assert(
      fc.property(fc.nat({ max: 0x7fffffff }), fc.nat({ max: 0xffffffff }), (hi, lo) => check(hi, lo)),
      { numRuns: 10_000 },
    );
  });

  test('GIVEN random keys, entities and ids THEN the public id is the one a plain BigInt model of the format computes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.nat({ max: 60 }),
        anyKey,
        (key, entity, keyId, id) => {
          expect(publicIdCodec({ key, entity, keyId }).encode(id)).toBe(
            referencePublicId(key, entity, id, keyId),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  test('GIVEN a fixed key, entity and id THEN the public id is pinned (changing it breaks every URL already out)', () => {
    expect(orders.encode(175928847299117063n)).toBe(orders.encode(175928847299117063n));
    expect(orders.encode(175928847299117063n)).toBe('08qHcZnkfven3Q');
    expect(players.encode(1n)).toBe('05VtaQiG9jPiaU');
    expect(publicIdCodec({ key: KEY, entity: 'order', keyId: 1 }).encode(175928847299117063n)).toBe(
      '18qHcZnkfven3O',
    );
  });
});

describe('publicIdCodec: what it hides', () => {
  // How often another entity's or key's public ids pass: public-id-foreign.property.test.ts.
  test('GIVEN two entities or two keys THEN the same id gets unrelated public ids', () => {
    const other = publicIdCodec({ key: 'ffeeddccbbaa99887766554433221100', entity: 'order' });
    let same = 0;
    for (let id = 1n; id <= 1000n; id++) {
      const order: string = orders.encode(id);
      if (players.encode(id) === order || other.encode(id) === order) same++;
    }
    expect(same).toBe(0);
  });

  test('GIVEN consecutive keys THEN their public ids keep no order and share no prefix beyond chance', () => {
    let ascending = 0;
    let samePrefix = 0;
    let previous = orders.encode(1n);
    for (let id = 2n; id <= 20_001n; id++) {
      const pid = orders.encode(id);
      if (pid > previous) ascending++;
      if (pid.slice(1, 3) === previous.slice(1, 3)) samePrefix++; // the value's first two digits
      previous = pid;
    }
    expect(ascending / 20_000).toBeGreaterThan(0.48);
    expect(ascending / 20_000).toBeLessThan(0.52);
    // By chance about 20,000 / (13 * 61) ≈ 25 (the first character has 13 values, as 2^63 < 13 * 61^10);
    // unpermuted, consecutive ids would share their first ten characters nearly every time.
    expect(samePrefix).toBeLessThan(50);
  });
});

describe('publicIdCodec: one valid string per key, typos refused', () => {
  const sample = fc.sample(anyKey, { numRuns: 100, seed: 15 }).map((id) => orders.encode(id));
  const parts = new Uint32Array(4);

  test('GIVEN any single character of a public id replaced by any other THEN the typo check refuses it, whatever the key', () => {
    // At the text level, where no key is involved: the refusal is certain, not the keyed check's luck.
    const faults = new Map<string, number>();
    for (const pid of sample) {
      for (let at = 0; at < pid.length; at++) {
        for (const ch of PUBLIC_ID_ALPHABET) {
          if (ch === pid[at]) continue;
          const fault = readPublicId(pid.slice(0, at) + ch + pid.slice(at + 1), parts) ?? 'none';
          faults.set(fault, (faults.get(fault) ?? 0) + 1);
        }
      }
    }
    expect(Object.fromEntries(faults)).toEqual({ check: 100 * 14 * 60 });
  });

  test('GIVEN any two different characters swapped, adjacent or not THEN the typo check refuses it', () => {
    let swaps = 0;
    const faults = new Set<string>();
    for (const pid of sample) {
      for (let i = 0; i < pid.length; i++) {
        for (let j = i + 1; j < pid.length; j++) {
          if (pid[i] === pid[j]) continue;
          const swapped = [...pid];
          [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
          faults.add(readPublicId(swapped.join(''), parts) ?? 'none');
          swaps++;
        }
      }
    }
    expect(swaps).toBeGreaterThan(100 * 80); // of 91 pairs of positions, a few hold the same character
    expect([...faults]).toEqual(['check']);
  });

  test('GIVEN a typo in the key id or in the keyed check character THEN decode names the typo, not the key', () => {
    const pid = orders.encode(7n);
    for (const at of [0, 12, 13]) {
      const typo = `${pid.slice(0, at)}${pid[at] === 'x' ? 'y' : 'x'}${pid.slice(at + 1)}`;
      expect((caught(() => orders.decode(typo)) as InvalidPublicIdError).fault).toBe('check');
    }
  });

  test.each([
    ['too short', (p: string) => p.slice(1), 'length'],
    ['too long', (p: string) => `${p}0`, 'length'],
    ['the old 12-character form', (p: string) => p.slice(1, 13), 'length'],
    ['a space', (p: string) => ` ${p.slice(1)}`, 'character'],
    ['a lowercase l', (p: string) => `l${p.slice(1)}`, 'character'],
    ['a URL-encoded character', (p: string) => `%${p.slice(1)}`, 'character'],
    ['a non-ASCII character', (p: string) => `é${p.slice(1)}`, 'character'],
    ['case changed', (p: string) => swapCase(p), undefined],
  ])('GIVEN a public id with %s THEN decode refuses it naming the fault', (_what, mangle, fault) => {
    const pid = orders.encode(2n ** 53n + 1n);
    const bad = mangle(pid);
    expect(bad).not.toBe(pid);
    const err = caught(() => orders.decode(bad, 'params.orderId'));
    expect(err).toBeInstanceOf(InvalidPublicIdError);
    expect(err).toBeInstanceOf(InvalidIdError);
    expect(err).toMatchObject({ argument: 'params.orderId', entity: 'order', received: bad });
    if (fault) expect((err as InvalidPublicIdError).fault).toBe(fault);
    expect((err as Error).message).toMatch(
      /^"params\.orderId" must be a public id of "order": 14 characters/,
    );
  });

  test('GIVEN well-formed text whose value is 2^63 or more THEN decode refuses it as no key (range), whatever its keyed check', () => {
    // 'zzzzzzzzzzz' is 61^11-1, above 2^63; the typo check is made to match, so only the range is wrong.
    for (const keyed of PUBLIC_ID_ALPHABET) {
      const text = withTypoCheck(`0zzzzzzzzzzz${keyed}`);
      expect((caught(() => orders.decode(text)) as InvalidPublicIdError).fault).toBe('range');
    }
  });

  test('GIVEN the typo check made to match THEN every other keyed check character is refused as foreign', () => {
    const pid = orders.encode(2n ** 53n + 1n);
    const faults = new Set<string>();
    for (const keyed of PUBLIC_ID_ALPHABET) {
      if (keyed === pid[12]) continue;
      const forged = withTypoCheck(`${pid.slice(0, 12)}${keyed}`);
      faults.add((caught(() => orders.decode(forged)) as InvalidPublicIdError).fault);
    }
    expect([...faults]).toEqual(['foreign']);
  });

  test('GIVEN a value that is not a key or not a string THEN encode and decode refuse it', () => {
    expect(() => orders.encode(0n)).toThrow(InvalidIdError);
    expect(() => orders.encode(MAX_KEY + 1n)).toThrow(InvalidIdError);
    expect(() => orders.encode(42 as never)).toThrow(InvalidIdError);
    expect((caught(() => orders.decode(42 as never)) as InvalidPublicIdError).fault).toBe('type');
    expect(orders.is(undefined)).toBe(false);
  });
});

describe('publicIdCodec: key rotation by key id', () => {
  const OLD = 'ffeeddccbbaa99887766554433221100';
  const NEW = '00112233445566778899aabbccddeeff';
  const before = publicIdCodec({ key: OLD, keyId: 0, entity: 'order' });
  const after = publicIdCodec({ key: NEW, keyId: 1, entity: 'order', previous: [{ key: OLD, keyId: 0 }] });
  const ids = fc.sample(anyKey, { numRuns: 2000, seed: 46 });

  test('GIVEN a codec with a previous key THEN every old public id decodes with the key that made it, and new ones use the current key', () => {
    let wrong = 0;
    for (const id of ids) {
      const old = before.encode(id);
      const renewed = after.encode(id);
      if (after.decode(old) !== id || after.decode(renewed) !== id || renewed === old) wrong++;
    }
    expect(wrong).toBe(0);
    expect(after.keyId).toBe(1);
    expect(after.encode(42n)[0]).toBe('1');
    expect(before.encode(42n)[0]).toBe('0');
  });

  test('GIVEN an old public id THEN re-encoding its key gives the current one, the redirect target', () => {
    const old = before.encode(175928847299117063n);
    const current = after.encode(after.decode(old));
    expect(current).not.toBe(old);
    expect(after.encode(after.decode(current))).toBe(current);
  });

  test('GIVEN a public id made with a key the codec does not hold THEN decode refuses it as fault "key", every time', () => {
    const retired = publicIdCodec({ key: NEW, keyId: 1, entity: 'order' }); // the old key dropped
    const third = publicIdCodec({ key: 'a'.repeat(32), keyId: 2, entity: 'order' });
    const faults = new Set<string>();
    for (const id of ids.slice(0, 200)) {
      for (const [codec, pid] of [
        [retired, before.encode(id)],
        [after, third.encode(id)],
        [before, after.encode(id)],
      ] as const) {
        const err = caught(() => codec.decode(pid, 'params.orderId'));
        expect(err).toBeInstanceOf(InvalidPublicIdError);
        faults.add((err as InvalidPublicIdError).fault);
      }
    }
    expect([...faults]).toEqual(['key']);
    expect((caught(() => retired.decode(before.encode(1n))) as Error).message).toMatch(
      /id of a key the codec does not hold/,
    );
  });

  test.each([
    ['the current key', { key: NEW, keyId: 3, entity: 'order', previous: [{ key: OLD, keyId: 3 }] }],
    [
      'another previous key',
      {
        key: NEW,
        entity: 'order',
        previous: [
          { key: OLD, keyId: 1 },
          { key: KEY, keyId: 1 },
        ],
      },
    ],
  ])('GIVEN a previous key with the key id of %s THEN InvalidArgumentError names it', (_what, options) => {
    const err = caught(() => publicIdCodec(options));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toMatch(/^previous\[[01]\]\.keyId$/);
    expect((err as Error).message).toMatch(/one no other key of the codec has/);
  });
});

describe('publicIdCodec: options', () => {
  test.each([
    ['a short hex string', 'abcdef'],
    ['33 hex digits', `${KEY}0`],
    ['a passphrase', 'correct horse battery staple!!!!'],
    ['15 bytes', new Uint8Array(15)],
    ['undefined', undefined],
  ])('GIVEN a key that is %s THEN InvalidArgumentError names "key" without showing it', (_what, key) => {
    const err = caught(() => publicIdCodec({ key: key as never, entity: 'order' }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ argument: 'key' });
    if (typeof key === 'string') expect((err as Error).message).not.toContain(key);
  });

  test('GIVEN the key as bytes or as hex THEN the codecs agree, and the caller may reuse the bytes', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i);
    const fromBytes = publicIdCodec({ key: bytes, entity: 'order' });
    bytes.fill(0);
    expect(fromBytes.encode(99n)).toBe(orders.encode(99n));
    expect(publicIdCodec({ key: KEY.toUpperCase(), entity: 'order' }).encode(99n)).toBe(orders.encode(99n));
  });

  test.each([
    ['empty', ''],
    ['not a string', 7],
    ['too long', 'x'.repeat(101)],
  ])('GIVEN an entity that is %s THEN InvalidArgumentError names "entity"', (_what, entity) => {
    expect(caught(() => publicIdCodec({ key: KEY, entity: entity as never }))).toMatchObject({
      argument: 'entity',
    });
  });

  test.each([
    ['61', { keyId: 61 }, 'keyId'],
    ['-1', { keyId: -1 }, 'keyId'],
    ['1.5', { keyId: 1.5 }, 'keyId'],
    ['a string', { keyId: '1' }, 'keyId'],
    ['missing in a previous key', { keyId: 1, previous: [{ key: KEY }] }, 'previous[0].keyId'],
    ['a previous key that is not one', { keyId: 1, previous: [{ key: 'abc', keyId: 0 }] }, 'previous[0].key'],
    ['previous not an array', { previous: { key: KEY, keyId: 1 } }, 'previous'],
    ['a previous entry not an object', { keyId: 1, previous: [null] }, 'previous[0]'],
  ])(
    'GIVEN a key id or previous key that is %s THEN InvalidArgumentError names it',
    (_what, extra, argument) => {
      const err = caught(() => publicIdCodec({ key: KEY, entity: 'order', ...(extra as object) }));
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err).toMatchObject({ argument });
      expect((err as Error).message).not.toContain('abc');
    },
  );

  test('GIVEN the entity in the type THEN public ids of two entities do not mix', () => {
    expectTypeOf(orders.encode(1n)).toEqualTypeOf<PublicId<'order'>>();
    expectTypeOf<PublicId<'order'>>().not.toMatchTypeOf<PublicId<'player'>>();
    expectTypeOf<string>().not.toMatchTypeOf<PublicId<'order'>>();
  });
});

/** The first 13 characters of a public id and the typo check character that makes them valid text. */
function withTypoCheck(first13: string): string {
  const sum = [...first13].reduce((s, c, j) => s + (j + 2) * PUBLIC_ID_ALPHABET.indexOf(c), 0);
  return `${first13}${PUBLIC_ID_ALPHABET[(61 - (sum % 61)) % 61]}`;
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
