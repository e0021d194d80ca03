// The text of a public id, 14 characters of a 61-letter alphabet:
//
//   K DDDDDDDDDDD C T
//   │ │           │ └ typo check: makes the weighted sum of all 14 digits a multiple of 61
//   │ │           └── keyed check: a PRF of the value under the codec's key and entity
//   │ └────────────── the permuted 63-bit value, 11 base-61 digits, most significant first
//   └──────────────── key id, 0..60: which of the codec's keys made it
//
// 61 is prime and the weights 2..14 (position 0..12) and 1 (the typo check) are distinct and
// non-zero mod 61, so every single-character substitution anywhere, and every transposition of two
// different characters (adjacent or not), changes the weighted sum: such a typo is always refused,
// whatever the key id and keyed check are. This module knows no key.

/** 0-9, A-Z, a-z without the lowercase L (easily read as 1 or I): 61 characters, all URL-safe. */
export const PUBLIC_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE = 61;
/** 61^11 > 2^63 > 61^10: eleven digits hold every 63-bit value, and some strings hold more. */
const DIGITS = 11;
/** The length of every public id: the key id, eleven digits and the two check characters. */
export const PUBLIC_ID_LENGTH = DIGITS + 3;
/** Key ids are one character: 0..60. */
export const MAX_KEY_ID = BASE - 1;
const KEYED = DIGITS + 1;
const TYPO = DIGITS + 2;
const TWO_32 = 0x100000000;

const CODES = Uint16Array.from(PUBLIC_ID_ALPHABET, (c) => c.charCodeAt(0));
/** Character code to digit, -1 for a character outside the alphabet. */
const VALUES = new Int8Array(128).fill(-1);
for (let d = 0; d < BASE; d++) VALUES[CODES[d]!] = d;

/** Why a string is not well-formed public-id text, before any key is involved. */
export type PublicIdTextFault = 'length' | 'character' | 'check' | 'range';

const digits = new Uint8Array(DIGITS);

/**
 * Writes a public id: key id `keyId` (0..60), the 63-bit value (hi: 31 bits, lo: 32 bits) and the
 * keyed check digit `keyed` (0..60); the typo check is computed here.
 */
export function writePublicId(keyId: number, hi: number, lo: number, keyed: number): string {
  let h = hi;
  let l = lo;
  // Long division of (h * 2^32 + l) by 61, eleven times; every intermediate is exact in a double.
  // (Math.floor of a quotient, not %: on doubles % is a slow library call.)
  for (let j = DIGITS - 1; j >= 0; j--) {
    const qh = Math.floor(h / BASE);
    const t = (h - qh * BASE) * TWO_32 + l;
    h = qh;
    l = Math.floor(t / BASE);
    digits[j] = t - l * BASE;
  }
  // Weight j + 2 for the character at position j: 2 for the key id, 3..13 for the digits, 14 for the keyed check.
  let sum = 2 * keyId + (KEYED + 2) * keyed;
  for (let j = 0; j < DIGITS; j++) sum += (j + 3) * digits[j]!;
  return String.fromCharCode(
    CODES[keyId]!,
    CODES[digits[0]!]!,
    CODES[digits[1]!]!,
    CODES[digits[2]!]!,
    CODES[digits[3]!]!,
    CODES[digits[4]!]!,
    CODES[digits[5]!]!,
    CODES[digits[6]!]!,
    CODES[digits[7]!]!,
    CODES[digits[8]!]!,
    CODES[digits[9]!]!,
    CODES[digits[10]!]!,
    CODES[keyed]!,
    CODES[(BASE - (sum % BASE)) % BASE]!,
  );
}

/**
 * Reads a public id's text into `out` as (key id, hi, lo, keyed check digit), or says what is
 * wrong with it: the length, a character outside the alphabet (case matters), the typo check, or
 * a value of 2^63 or more. The key id and the keyed check are the codec's to judge. The characters
 * are all read before any verdict, so the time taken does not depend on where a string goes wrong.
 */
export function readPublicId(text: string, out: Uint32Array): PublicIdTextFault | undefined {
  if (text.length !== PUBLIC_ID_LENGTH) return 'length';
  let bad = 0;
  let hi = 0;
  let lo = 0;
  let code = text.charCodeAt(0);
  const keyId = code < 128 ? VALUES[code]! : -1;
  bad |= keyId;
  let sum = 2 * keyId;
  for (let j = 0; j < DIGITS; j++) {
    code = text.charCodeAt(j + 1);
    const d = code < 128 ? VALUES[code]! : -1;
    bad |= d;
    sum += (j + 3) * d;
    // (hi, lo) = (hi, lo) * 61 + d; hi stays below 61^11 / 2^32, exact in a double.
    const t = lo * BASE + d;
    const carry = Math.floor(t / TWO_32);
    lo = t - carry * TWO_32;
    hi = hi * BASE + carry;
  }
  code = text.charCodeAt(KEYED);
  const keyed = code < 128 ? VALUES[code]! : -1;
  bad |= keyed;
  code = text.charCodeAt(TYPO);
  const typo = code < 128 ? VALUES[code]! : -1;
  bad |= typo;
  if (bad < 0) return 'character';
  if ((sum + (KEYED + 2) * keyed + typo) % BASE !== 0) return 'check';
  if (hi >= 0x80000000) return 'range';
  out[0] = keyId;
  out[1] = hi;
  out[2] = lo;
  out[3] = keyed;
  return undefined;
}
