// The keyed check character of a public id: a pseudo-random function of the whole permuted value
// under a key derived from the codec's key and entity. Two codecs (other entity, other key) have
// independent check keys, so each string of one passes the other's keyed check with probability
// 1/61, independently for each id: never all of them, as a constant per codec would.
import { sipHash24Words } from './siphash.js';

/** The keyed check digit (0..60) of the permuted value (hi: 31 bits, lo: 32 bits): SipHash-2-4 of its 8 bytes, mod 61. */
export function keyedCheckDigit(check: Int32Array, hi: number, lo: number): number {
  const h = sipHash24Words(check, 0, hi, lo);
  // h mod 61 in two 16-bit steps: every operand stays a small integer (% on a double is a slow call).
  return (((h >>> 16) % 61) * 0x10000 + (h & 0xffff)) % 61;
}
