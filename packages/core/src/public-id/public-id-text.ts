// The text of a public id: a 63-bit value as 11 base-61 digits, most significant first, then one
// check character. 61 is prime: with the check below, every single-character substitution and
// every transposition of two different characters (adjacent or not) changes the check sum, so
// such a typo is always refused.

/** 0-9, A-Z, a-z without the lowercase L (easily read as 1 or I): 61 characters, all URL-safe. */
export const PUBLIC_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE = 61;
/** 61^11 > 2^63 > 61^10: eleven digits hold every 63-bit value, and some strings hold more. */
const DIGITS = 11;
/** The length of every public id: eleven digits and the check character. */
export const PUBLIC_ID_LENGTH = DIGITS + 1;
const TWO_32 = 0x100000000;

const CODES = Uint16Array.from(PUBLIC_ID_ALPHABET, (c) => c.charCodeAt(0));
/** Character code to digit, -1 for a character outside the alphabet. */
const VALUES = new Int8Array(128).fill(-1);
for (let d = 0; d < BASE; d++) VALUES[CODES[d]!] = d;

/**
 * The check character's digit: it makes offset + the sum of digit j (0 = leftmost) times j + 2 +
 * the check digit times 1 a multiple of 61. The weights 1..12 are distinct and non-zero mod 61, so
 * a substituted character or two swapped ones always change the sum; the offset (derived from the
 * key and the entity) changes nothing of that, and makes another entity's ids fail the check.
 */
function checkDigit(sum: number, offset: number): number {
  return (BASE - ((sum + offset) % BASE)) % BASE;
}

/** Why a string is not a public id. */
export type PublicIdFault = 'length' | 'character' | 'range' | 'check';

const digits = new Uint8Array(DIGITS);

/** Writes the 63-bit value (hi: 31 bits, lo: 32 bits) as a public id's 12 characters. */
export function writePublicId(hi: number, lo: number, checkOffset: number): string {
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
  let sum = 0;
  for (let j = 0; j < DIGITS; j++) sum += (j + 2) * digits[j]!;
  return String.fromCharCode(
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
    CODES[checkDigit(sum, checkOffset)]!,
  );
}

/**
 * Reads a public id's 12 characters into `out` as (hi, lo), or says what is wrong with them. Only
 * the exact string {@link writePublicId} writes for a value passes: the right length, alphabet
 * characters only (case matters), a value below 2^63, and the check character. The characters
 * are all read before any verdict, so the time taken does not depend on where a string goes wrong.
 */
export function readPublicId(text: string, checkOffset: number, out: Uint32Array): PublicIdFault | undefined {
  if (text.length !== PUBLIC_ID_LENGTH) return 'length';
  let bad = 0;
  let hi = 0;
  let lo = 0;
  let sum = 0;
  for (let j = 0; j < DIGITS; j++) {
    const code = text.charCodeAt(j);
    const d = code < 128 ? VALUES[code]! : -1;
    bad |= d >>> 31; // 1 for -1
    const digit = d & 0x3f;
    sum += (j + 2) * digit;
    // (hi, lo) = (hi, lo) * 61 + digit; hi stays below 61^11 / 2^32, exact in a double.
    const t = lo * BASE + digit;
    const carry = Math.floor(t / TWO_32);
    lo = t - carry * TWO_32;
    hi = hi * BASE + carry;
  }
  const code = text.charCodeAt(DIGITS);
  const c = code < 128 ? VALUES[code]! : -1;
  bad |= c >>> 31;
  if (bad !== 0) return 'character';
  if (hi >= 0x80000000) return 'range';
  if (c !== checkDigit(sum, checkOffset)) return 'check';
  out[0] = hi;
  out[1] = lo;
  return undefined;
}
