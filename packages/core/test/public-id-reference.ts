// An independent, deliberately plain model of the public-id format, to check the fast code
// against: BigInt arithmetic throughout, the npm `siphash` package as the PRF, the spec read off
// the README rather than off the implementation.
import siphash from 'siphash';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const enc = new TextEncoder();

/** SipHash-2-4 as a 64-bit bigint; key: 16 bytes, read as the reference implementation does. */
function sip(key: Uint8Array, message: Uint8Array): bigint {
  const w = (at: number) => new DataView(key.buffer, key.byteOffset).getUint32(at, true);
  const r = siphash.hash([w(0), w(4), w(8), w(12)], message);
  return (BigInt(r.h >>> 0) << 32n) | BigInt(r.l >>> 0);
}

function le64(v: bigint): number[] {
  return Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
}

/** The public id of `id` under a 16-byte key, an entity and a key id, per the README's description. */
export function referencePublicId(key: Uint8Array, entity: string, id: bigint, keyId = 0): string {
  const prf = (i: number, j: number) =>
    sip(key, Uint8Array.from([...enc.encode('snowkey/public-id/v2'), 0, i, j, ...enc.encode(entity)]));
  const derivedKey = (i: number) => Uint8Array.from([...le64(prf(i, 0)), ...le64(prf(i, 1))]);
  const f = (i: number, half: bigint) =>
    sip(derivedKey(i), Uint8Array.from(le64(half).slice(0, 4))) & 0xffffffffn;
  let a = id >> 32n; // 31 bits
  let b = id & 0xffffffffn; // 32 bits
  for (let i = 0; i < 10; i += 2) {
    a ^= f(i, b) & 0x7fffffffn;
    b ^= f(i + 1, a);
  }
  const permuted = (a << 32n) | b;
  const keyed = Number((sip(derivedKey(0xfe), Uint8Array.from(le64(permuted))) & 0xffffffffn) % 61n);
  let value = permuted;
  const digits: number[] = [];
  for (let j = 0; j < 11; j++) {
    digits.unshift(Number(value % 61n));
    value /= 61n;
  }
  const body = [keyId, ...digits, keyed];
  // Weights 2..14 from the left for the first 13 characters, 1 for the typo check.
  const sum = body.reduce((s, d, j) => s + (j + 2) * d, 0);
  const typo = (61 - (sum % 61)) % 61;
  return [...body, typo].map((d) => ALPHABET[d]).join('');
}
