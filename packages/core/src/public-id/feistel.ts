// A keyed, tweaked permutation of the 63-bit numbers 0..2^63-1: an alternating (unbalanced) Feistel
// network on a 31-bit and a 32-bit half, the construction NIST SP 800-38G's FF1 uses for a domain of
// that shape, with SipHash-2-4 as the round function in place of FF1's AES-CBC-MAC. Ten rounds, as
// FF1 has. Every round combines by XOR on the half's own width, so the result stays in 0..2^63-1
// with no cycle-walking: the work is the same for every input.
import { PREPARED_KEY_WORDS, prepareWordKey, sipHash24, sipHash24Word, sipKey } from './siphash.js';

/** Rounds of the network: FF1's ten. Even, so the 31-bit half ends where it started. */
export const FEISTEL_ROUNDS = 10;

const DOMAIN = new TextEncoder().encode('snowkey/public-id/v2');
const LOW31 = 0x7fffffff;
const W = PREPARED_KEY_WORDS;

/** What a codec derives from its master key and tweak. */
export interface DerivedKeys {
  /** One SipHash key per round, prepared for `sipHash24Word` (8 int32 each). */
  readonly rounds: Int32Array;
  /** The SipHash key of the keyed check character, prepared for `sipHash24Words` (8 int32). */
  readonly check: Int32Array;
}

/**
 * Derives the round keys and the check key from the master key and the tweak (the entity):
 * round key i = SipHash(master, "snowkey/public-id/v2" 0x00 i j tweak) for j = 0, 1, and the check
 * key from i = 0xfe. A PRF keyed with a random key is a sound key-derivation function; the domain
 * string keeps these inputs apart from any other use of the key, and the tweak gives every entity
 * its own permutation and its own check.
 */
export function deriveKeys(master: Uint8Array, tweak: Uint8Array): DerivedKeys {
  const key = sipKey(master);
  const message = new Uint8Array(DOMAIN.length + 3 + tweak.length);
  message.set(DOMAIN);
  message.set(tweak, DOMAIN.length + 3);
  const out = new Uint32Array(2);
  const prf = (i: number, j: number) => {
    message[DOMAIN.length + 1] = i;
    message[DOMAIN.length + 2] = j;
    sipHash24(key, message, out);
  };
  const rounds = new Int32Array(FEISTEL_ROUNDS * PREPARED_KEY_WORDS);
  for (let round = 0; round < FEISTEL_ROUNDS; round++) {
    prf(round, 0);
    const k0hi = out[0]!;
    const k0lo = out[1]!;
    prf(round, 1);
    prepareWordKey([k0hi, k0lo, out[0]!, out[1]!], rounds, round * PREPARED_KEY_WORDS);
  }
  prf(0xfe, 0);
  const c0hi = out[0]!;
  const c0lo = out[1]!;
  prf(0xfe, 1);
  const check = new Int32Array(PREPARED_KEY_WORDS);
  prepareWordKey([c0hi, c0lo, out[0]!, out[1]!], check, 0);
  return { rounds, check };
}

/**
 * Permutes the 63-bit value (hi: 31 bits, lo: 32 bits) into `out` as (hi, lo). Round i XORs the
 * 31-bit half (even i) or the 32-bit half (odd i) with SipHash(round key i, the other half).
 */
export function permute(keys: Int32Array, hi: number, lo: number, out: Uint32Array): void {
  let a = hi;
  let b = lo;
  for (let i = 0; i < FEISTEL_ROUNDS; i += 2) {
    a = (a ^ (sipHash24Word(keys, i * W, b) & LOW31)) >>> 0; // even round: the 31-bit half
    b = (b ^ sipHash24Word(keys, (i + 1) * W, a)) >>> 0; // odd round: the 32-bit half
  }
  out[0] = a;
  out[1] = b;
}

/** The inverse of {@link permute}: the rounds in reverse order. */
export function unpermute(keys: Int32Array, hi: number, lo: number, out: Uint32Array): void {
  let a = hi;
  let b = lo;
  for (let i = FEISTEL_ROUNDS - 2; i >= 0; i -= 2) {
    b = (b ^ sipHash24Word(keys, (i + 1) * W, a)) >>> 0; // undo the odd round: the 32-bit half
    a = (a ^ (sipHash24Word(keys, i * W, b) & LOW31)) >>> 0; // undo the even round: the 31-bit half
  }
  out[0] = a;
  out[1] = b;
}
