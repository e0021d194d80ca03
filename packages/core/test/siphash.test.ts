import fc from 'fast-check';
// The reference-derived implementation on npm, as an independent oracle.
import siphash from 'siphash';
import { describe, expect, test } from 'vitest';
import {
  prepareWordKey,
  sipHash24,
  sipHash24Word,
  sipHash24Words,
  sipKey,
} from '../src/public-id/siphash.js';

const hex64 = (out: Uint32Array) =>
  out[0]!.toString(16).padStart(8, '0') + out[1]!.toString(16).padStart(8, '0');
const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i);

function ours(key: Uint8Array, message: Uint8Array): string {
  const out = new Uint32Array(2);
  sipHash24(sipKey(key), message, out);
  return hex64(out);
}

function oracle(key: Uint8Array, message: Uint8Array): string {
  const k = sipKey(key); // [k0hi, k0lo, k1hi, k1lo]; the library wants [k0lo, k0hi, k1lo, k1hi]
  const r = siphash.hash([k[1], k[0], k[3], k[2]], message);
  return (r.h >>> 0).toString(16).padStart(8, '0') + (r.l >>> 0).toString(16).padStart(8, '0');
}

describe('SipHash-2-4', () => {
  // The paper's (appendix A) and the reference implementation's vectors: key 00..0f, message 00..(n-1).
  test.each([
    [0, '726fdb47dd0e0e31'],
    [1, '74f839c593dc67fd'],
    [7, 'ab0200f58b01d137'],
    [8, '93f5f5799a932462'],
    [15, 'a129ca6149be45e5'],
  ])(
    'GIVEN the reference key and a %i-byte message THEN the output is the published vector',
    (n, expected) => {
      expect(ours(bytes(16), bytes(n))).toBe(expected);
    },
  );

  test('GIVEN random keys and messages of every length to 40 bytes THEN it agrees with the npm siphash package', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.uint8Array({ maxLength: 40 }),
        (key, message) => {
          expect(ours(key, message)).toBe(oracle(key, message));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('GIVEN a 32-bit word THEN the fast form equals the low half of the general form on its 4 little-endian bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.nat({ max: 0xffffffff }),
        (key, word) => {
          const message = new Uint8Array(new Uint32Array([word]).buffer); // little-endian on every engine we run
          const out = new Uint32Array(2);
          sipHash24(sipKey(key), message, out);
          const prepared = new Int32Array(16);
          prepareWordKey(sipKey(key), prepared, 8);
          expect(sipHash24Word(prepared, 8, word)).toBe(out[1]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('GIVEN a 63-bit value as two words THEN the two-word form equals the low half of the general form on its 8 little-endian bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.nat({ max: 0x7fffffff }),
        fc.nat({ max: 0xffffffff }),
        (key, hi, lo) => {
          const message = new Uint8Array(new Uint32Array([lo, hi]).buffer); // little-endian on every engine we run
          const out = new Uint32Array(2);
          sipHash24(sipKey(key), message, out);
          const prepared = new Int32Array(16);
          prepareWordKey(sipKey(key), prepared, 8);
          expect(sipHash24Words(prepared, 8, hi, lo)).toBe(out[1]);
          expect(oracle(key, message).slice(8)).toBe(out[1]!.toString(16).padStart(8, '0'));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
