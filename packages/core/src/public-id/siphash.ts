// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed pseudo-random function for short inputs with a
// 128-bit key, the round function of the public-id cipher. Written on 32-bit halves, so it runs at
// the same speed in every JavaScript engine without BigInt or WebAssembly. A 64-bit word is two
// uint32 (hi, lo); the state is v0..v3 as [v0hi, v0lo, v1hi, v1lo, v2hi, v2lo, v3hi, v3lo].

/** The four initialisation constants, "somepseudorandomlygeneratedbytes", as (hi, lo) pairs. */
const INIT = [0x736f6d65, 0x70736575, 0x646f7261, 0x6e646f6d, 0x6c796765, 0x6e657261, 0x74656462, 0x79746573];

/**
 * A 128-bit SipHash key as four uint32: k0 (hi, lo), k1 (hi, lo), each k read little-endian from
 * the 16 key bytes, as the reference implementation reads them.
 */
export type SipKey = readonly [k0hi: number, k0lo: number, k1hi: number, k1lo: number];

/** Reads a SipHash key from 16 bytes. */
export function sipKey(bytes: Uint8Array): SipKey {
  return [le32(bytes, 4), le32(bytes, 0), le32(bytes, 12), le32(bytes, 8)];
}

function le32(b: Uint8Array, at: number): number {
  return ((b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0) as number;
}

/** SipRound on the state, in place. */
function sipRound(s: Uint32Array): void {
  let v0h = s[0]!;
  let v0l = s[1]!;
  let v1h = s[2]!;
  let v1l = s[3]!;
  let v2h = s[4]!;
  let v2l = s[5]!;
  let v3h = s[6]!;
  let v3l = s[7]!;
  let t: number;
  // v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
  t = (v0l + v1l) >>> 0;
  v0h = (v0h + v1h + (t < v0l ? 1 : 0)) >>> 0;
  v0l = t;
  t = (v1h << 13) | (v1l >>> 19);
  v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
  v1h = t ^ v0h;
  t = v0h;
  v0h = v0l;
  v0l = t;
  // v2 += v3; v3 = rotl(v3, 16); v3 ^= v2
  t = (v2l + v3l) >>> 0;
  v2h = (v2h + v3h + (t < v2l ? 1 : 0)) >>> 0;
  v2l = t;
  t = (v3h << 16) | (v3l >>> 16);
  v3l = ((v3l << 16) | (v3h >>> 16)) ^ v2l;
  v3h = t ^ v2h;
  // v0 += v3; v3 = rotl(v3, 21); v3 ^= v0
  t = (v0l + (v3l >>> 0)) >>> 0;
  v0h = (v0h + (v3h >>> 0) + (t < v0l ? 1 : 0)) >>> 0;
  v0l = t;
  t = (v3h << 21) | (v3l >>> 11);
  v3l = ((v3l << 21) | (v3h >>> 11)) ^ v0l;
  v3h = t ^ v0h;
  // v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
  t = (v2l + (v1l >>> 0)) >>> 0;
  v2h = (v2h + (v1h >>> 0) + (t < v2l ? 1 : 0)) >>> 0;
  v2l = t;
  t = (v1h << 17) | (v1l >>> 15);
  v1l = ((v1l << 17) | (v1h >>> 15)) ^ v2l;
  v1h = t ^ v2h;
  s[0] = v0h;
  s[1] = v0l;
  s[2] = v1h;
  s[3] = v1l;
  s[4] = v2l; // v2 = rotl(v2, 32): the halves swap
  s[5] = v2h;
  s[6] = v3h;
  s[7] = v3l;
}

/** The state after keying: v0..v3 = k0, k1, k0, k1 xor the constants. */
function init(s: Uint32Array, key: SipKey): void {
  s[0] = key[0] ^ INIT[0]!;
  s[1] = key[1] ^ INIT[1]!;
  s[2] = key[2] ^ INIT[2]!;
  s[3] = key[3] ^ INIT[3]!;
  s[4] = key[0] ^ INIT[4]!;
  s[5] = key[1] ^ INIT[5]!;
  s[6] = key[2] ^ INIT[6]!;
  s[7] = key[3] ^ INIT[7]!;
}

/** Absorbs one 64-bit block (hi, lo) with two compression rounds. */
function absorb(s: Uint32Array, hi: number, lo: number): void {
  s[6]! ^= hi;
  s[7]! ^= lo;
  sipRound(s);
  sipRound(s);
  s[0]! ^= hi;
  s[1]! ^= lo;
}

/** Four finalisation rounds; the 64-bit result as (hi, lo) in `out`. */
function finish(s: Uint32Array, out: Uint32Array): void {
  s[5]! ^= 0xff;
  sipRound(s);
  sipRound(s);
  sipRound(s);
  sipRound(s);
  out[0] = s[0]! ^ s[2]! ^ s[4]! ^ s[6]!;
  out[1] = s[1]! ^ s[3]! ^ s[5]! ^ s[7]!;
}

const state = new Uint32Array(8);

/**
 * SipHash-2-4 of `message` under `key`, as the 64-bit result (hi, lo) written into `out`.
 * The general form, for deriving keys; {@link sipHash24Word} is the fast form for one 32-bit word.
 */
export function sipHash24(key: SipKey, message: Uint8Array, out: Uint32Array): void {
  init(state, key);
  const full = message.length - (message.length % 8);
  for (let at = 0; at < full; at += 8) absorb(state, le32(message, at + 4), le32(message, at));
  // The last block: the remaining bytes, and the message length (mod 256) in the top byte.
  const tail = new Uint8Array(8);
  tail.set(message.subarray(full));
  tail[7] = message.length & 0xff;
  absorb(state, le32(tail, 4), le32(tail, 0));
  finish(state, out);
}

/** The high half of the last block of a 4-byte message: its length, 4, in the top byte. */
const WORD_LENGTH = 0x04000000;

/** Words of a prepared key in a {@link prepareWordKey} array. */
export const PREPARED_KEY_WORDS = 8;

/**
 * Prepares `key` for {@link sipHash24Word}, writing 8 int32 at `at` in `into`: the keyed state with
 * the parts that do not depend on the message done already (the 4-byte message's length byte in
 * v3, and the first quarter of the first SipRound, which touches only v0 and v1).
 */
export function prepareWordKey(key: SipKey, into: Int32Array, at: number): void {
  let v0h = key[0] ^ INIT[0]!;
  let v0l = key[1] ^ INIT[1]!;
  let v1h = key[2] ^ INIT[2]!;
  let v1l = key[3] ^ INIT[3]!;
  // v0 += v1; v1 = rotl(v1, 13) ^ v0; v0 = rotl(v0, 32)
  const t = (v0l + v1l) | 0;
  v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~t)) >>> 31)) | 0;
  v0l = t;
  const r = (v1h << 13) | (v1l >>> 19);
  v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
  v1h = r ^ v0h;
  into.set(
    [
      v0l,
      v0h,
      v1h,
      v1l,
      key[0] ^ INIT[4]!,
      key[1] ^ INIT[5]!,
      key[2] ^ INIT[6]! ^ WORD_LENGTH,
      key[3] ^ INIT[7]!,
    ],
    at,
  );
}

/**
 * The low 32 bits of SipHash-2-4 of the 4-byte little-endian message `word` under the key
 * prepared at `at` in `keys` ({@link prepareWordKey}): the value {@link sipHash24} gives for those
 * 4 bytes, without building them. The hot path of public ids, so the state lives in int32 locals
 * (V8 keeps them unboxed) and each 64-bit addition takes its carry from sign bits: the carry of
 * a + b out of bit 31 is bit 31 of (a & b) | ((a | b) & ~(a + b)).
 */
export function sipHash24Word(keys: Int32Array, at: number, word: number): number {
  let v0h = keys[at]!;
  let v0l = keys[at + 1]!;
  let v1h = keys[at + 2]!;
  let v1l = keys[at + 3]!;
  let v2h = keys[at + 4]!;
  let v2l = keys[at + 5]!;
  let v3h = keys[at + 6]!;
  let v3l = keys[at + 7]! ^ word;
  let t: number;
  for (let round = 0; round < 6; round++) {
    if (round === 2) {
      // the block is absorbed: xor it into v0, then finalise
      v0h ^= WORD_LENGTH;
      v0l ^= word;
      v2l ^= 0xff;
    }
    if (round !== 0) {
      // v0 += v1; v1 = rotl(v1, 13) ^ v0; v0 = rotl(v0, 32) (round 0 has it from prepareWordKey)
      t = (v0l + v1l) | 0;
      v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~t)) >>> 31)) | 0;
      v0l = t;
      t = (v1h << 13) | (v1l >>> 19);
      v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
      v1h = t ^ v0h;
      t = v0h;
      v0h = v0l;
      v0l = t;
    }
    // v2 += v3; v3 = rotl(v3, 16) ^ v2
    t = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (((v2l & v3l) | ((v2l | v3l) & ~t)) >>> 31)) | 0;
    v2l = t;
    t = (v3h << 16) | (v3l >>> 16);
    v3l = ((v3l << 16) | (v3h >>> 16)) ^ v2l;
    v3h = t ^ v2h;
    // v0 += v3; v3 = rotl(v3, 21) ^ v0
    t = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (((v0l & v3l) | ((v0l | v3l) & ~t)) >>> 31)) | 0;
    v0l = t;
    t = (v3h << 21) | (v3l >>> 11);
    v3l = ((v3l << 21) | (v3h >>> 11)) ^ v0l;
    v3h = t ^ v0h;
    // v2 += v1; v1 = rotl(v1, 17) ^ v2; v2 = rotl(v2, 32)
    t = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (((v2l & v1l) | ((v2l | v1l) & ~t)) >>> 31)) | 0;
    v2l = t;
    t = (v1h << 17) | (v1l >>> 15);
    v1l = ((v1l << 17) | (v1h >>> 15)) ^ v2l;
    v1h = t ^ v2h;
    t = v2h;
    v2h = v2l;
    v2l = t;
  }
  return (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
}

/** The high half of the last block of an 8-byte message: its length, 8, in the top byte. */
const WORDS_LENGTH = 0x08000000;

/**
 * The low 32 bits of SipHash-2-4 of the 8-byte little-endian message `hi * 2^32 + lo` under the
 * key prepared at `at` in `keys` ({@link prepareWordKey}, whose 4-byte length it takes back out):
 * the keyed check of a public id, a function of the whole 63-bit value. Two blocks (the message,
 * then its length), so eight SipRounds where {@link sipHash24Word} has six; the same int32 locals.
 */
export function sipHash24Words(keys: Int32Array, at: number, hi: number, lo: number): number {
  let v0h = keys[at]!;
  let v0l = keys[at + 1]!;
  let v1h = keys[at + 2]!;
  let v1l = keys[at + 3]!;
  let v2h = keys[at + 4]!;
  let v2l = keys[at + 5]!;
  let v3h = keys[at + 6]! ^ WORD_LENGTH ^ hi;
  let v3l = keys[at + 7]! ^ lo;
  let t: number;
  for (let round = 0; round < 8; round++) {
    if (round === 2) {
      // the message block is absorbed: xor it into v0; the length block goes into v3
      v0h ^= hi;
      v0l ^= lo;
      v3h ^= WORDS_LENGTH;
    } else if (round === 4) {
      // the length block is absorbed: xor it into v0, then finalise
      v0h ^= WORDS_LENGTH;
      v2l ^= 0xff;
    }
    if (round !== 0) {
      t = (v0l + v1l) | 0;
      v0h = (v0h + v1h + (((v0l & v1l) | ((v0l | v1l) & ~t)) >>> 31)) | 0;
      v0l = t;
      t = (v1h << 13) | (v1l >>> 19);
      v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
      v1h = t ^ v0h;
      t = v0h;
      v0h = v0l;
      v0l = t;
    }
    t = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (((v2l & v3l) | ((v2l | v3l) & ~t)) >>> 31)) | 0;
    v2l = t;
    t = (v3h << 16) | (v3l >>> 16);
    v3l = ((v3l << 16) | (v3h >>> 16)) ^ v2l;
    v3h = t ^ v2h;
    t = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (((v0l & v3l) | ((v0l | v3l) & ~t)) >>> 31)) | 0;
    v0l = t;
    t = (v3h << 21) | (v3l >>> 11);
    v3l = ((v3l << 21) | (v3h >>> 11)) ^ v0l;
    v3h = t ^ v0h;
    t = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (((v2l & v1l) | ((v2l | v1l) & ~t)) >>> 31)) | 0;
    v2l = t;
    t = (v1h << 17) | (v1l >>> 15);
    v1l = ((v1l << 17) | (v1h >>> 15)) ^ v2l;
    v1h = t ^ v2h;
    t = v2h;
    v2h = v2l;
    v2l = t;
  }
  return (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
}
