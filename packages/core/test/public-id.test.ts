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
import { PUBLIC_ID_ALPHABET } from '../src/public-id/public-id-text.js';
import { caught } from './caught.js';
import { referencePublicId } from './public-id-reference.js';

const KEY = '000102030405060708090a0b0c0d0e0f';
const orders = publicIdCodec({ key: KEY, entity: 'order' });
const players = publicIdCodec({ key: KEY, entity: 'player' });
const anyKey = fc.bigInt({ min: 1n, max: MAX_KEY });

describe('publicIdCodec: round trip and bijection', () => {
  test('GIVEN any key THEN decode(encode(id)) is the id, and the public id is 12 alphabet characters', () => {
    fc.assert(
      fc.property(anyKey, (id) => {
        const pid = orders.encode(id);
        expect(pid).toMatch(/^[0-9A-Za-km-z]{12}$/);
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
        anyKey,
        (key, entity, id) => {
          expect(publicIdCodec({ key, entity }).encode(id)).toBe(referencePublicId(key, entity, id));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('GIVEN a fixed key, entity and id THEN the public id is pinned (changing it breaks every URL already out)', () => {
    expect(orders.encode(175928847299117063n)).toBe(orders.encode(175928847299117063n));
    expect(orders.encode(175928847299117063n)).toBe('2X3yQZjUBX8E');
    expect(players.encode(1n)).toBe('3fvIT4K9Zv3u');
  });
});

describe('publicIdCodec: what it hides', () => {
  test('GIVEN one key and two entities THEN the same id gets unrelated public ids, and mostly fails the other check', () => {
    let refused = 0;
    for (let id = 1n; id <= 6100n; id++) {
      const order = orders.encode(id);
      expect(players.encode(id)).not.toBe(order);
      if (!players.is(order)) refused++;
    }
    // The check offset differs per entity: about 60 in 61 are refused (a fixed key: no flakiness).
    expect(refused / 6100).toBeGreaterThan(0.95);
  });

  test('GIVEN two keys THEN the same entity and id get unrelated public ids', () => {
    const other = publicIdCodec({ key: 'ffeeddccbbaa99887766554433221100', entity: 'order' });
    for (let id = 1n; id <= 1000n; id++) expect(other.encode(id)).not.toBe(orders.encode(id));
  });

  test('GIVEN consecutive keys THEN their public ids keep no order and share no prefix beyond chance', () => {
    let ascending = 0;
    let samePrefix = 0;
    let previous = orders.encode(1n);
    for (let id = 2n; id <= 20_001n; id++) {
      const pid = orders.encode(id);
      if (pid > previous) ascending++;
      if (pid.slice(0, 2) === previous.slice(0, 2)) samePrefix++;
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
  const sample = fc.sample(anyKey, { numRuns: 100, seed: 15 });

  test('GIVEN any single character replaced by any other THEN the string is no public id', () => {
    let tried = 0;
    for (const id of sample) {
      const pid = orders.encode(id);
      for (let at = 0; at < pid.length; at++) {
        for (const ch of PUBLIC_ID_ALPHABET) {
          if (ch === pid[at]) continue;
          expect(orders.is(pid.slice(0, at) + ch + pid.slice(at + 1))).toBe(false);
          tried++;
        }
      }
    }
    expect(tried).toBe(100 * 12 * 60);
    const typo = `${orders.encode(7n).slice(0, 5)}${orders.encode(7n)[5] === 'x' ? 'y' : 'x'}${orders.encode(7n).slice(6)}`;
    expect(['check', 'range']).toContain((caught(() => orders.decode(typo)) as InvalidPublicIdError).fault);
  });

  test('GIVEN any two different characters swapped, adjacent or not THEN decode refuses it', () => {
    for (const id of sample) {
      const pid = orders.encode(id);
      for (let i = 0; i < pid.length; i++) {
        for (let j = i + 1; j < pid.length; j++) {
          if (pid[i] === pid[j]) continue;
          const swapped = [...pid];
          [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
          expect(orders.is(swapped.join(''))).toBe(false);
        }
      }
    }
  });

  test.each([
    ['too short', (p: string) => p.slice(1), 'length'],
    ['too long', (p: string) => `${p}0`, 'length'],
    ['a space', (p: string) => ` ${p.slice(1)}`, 'character'],
    ['a lowercase l', (p: string) => `l${p.slice(1)}`, 'character'],
    ['a URL-encoded character', (p: string) => `%${p.slice(1)}`, 'character'],
    ['a non-ASCII character', (p: string) => `é${p.slice(1)}`, 'character'],
    ['case changed', (p: string) => swapCase(p), undefined],
  ])('GIVEN a public id with %s THEN decode refuses it naming the fault', (_what, mangle, fault) => {
    const pid = orders.encode(2n ** 53n + 1n);
    const bad = mangle(pid);
    if (bad === pid) return; // a public id of digits only has no case to change
    const err = caught(() => orders.decode(bad, 'params.orderId'));
    expect(err).toBeInstanceOf(InvalidPublicIdError);
    expect(err).toBeInstanceOf(InvalidIdError);
    expect(err).toMatchObject({ argument: 'params.orderId', entity: 'order', received: bad });
    if (fault) expect((err as InvalidPublicIdError).fault).toBe(fault);
    expect((err as Error).message).toMatch(
      /^"params\.orderId" must be a public id of "order": 12 characters/,
    );
  });

  test('GIVEN well-formed text above 2^63 or standing for 0 THEN decode refuses it as no key (range)', () => {
    // 'zzzzzzzzzzz' is 61^11-1, above 2^63: whatever the check character, it is out of range.
    for (const ch of PUBLIC_ID_ALPHABET) {
      expect((caught(() => orders.decode(`zzzzzzzzzzz${ch}`)) as InvalidPublicIdError).fault).toMatch(
        /range|check/,
      );
    }
    const faults = new Set(
      [...PUBLIC_ID_ALPHABET].map(
        (ch) => (caught(() => orders.decode(`zzzzzzzzzzz${ch}`)) as InvalidPublicIdError).fault,
      ),
    );
    expect(faults.has('range')).toBe(true);
  });

  test('GIVEN a value that is not a key or not a string THEN encode and decode refuse it', () => {
    expect(() => orders.encode(0n)).toThrow(InvalidIdError);
    expect(() => orders.encode(MAX_KEY + 1n)).toThrow(InvalidIdError);
    expect(() => orders.encode(42 as never)).toThrow(InvalidIdError);
    expect((caught(() => orders.decode(42 as never)) as InvalidPublicIdError).fault).toBe('type');
    expect(orders.is(undefined)).toBe(false);
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

  test('GIVEN the entity in the type THEN public ids of two entities do not mix', () => {
    expectTypeOf(orders.encode(1n)).toEqualTypeOf<PublicId<'order'>>();
    expectTypeOf<PublicId<'order'>>().not.toMatchTypeOf<PublicId<'player'>>();
    expectTypeOf<string>().not.toMatchTypeOf<PublicId<'order'>>();
  });
});

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
