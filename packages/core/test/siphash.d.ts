// The npm `siphash` package (the tests' oracle) ships no declarations: the part the tests use.
declare module 'siphash' {
  /** SipHash-2-4 of `message` under a key of four uint32 (k0 lo, k0 hi, k1 lo, k1 hi); the result as (h, l). */
  export function hash(key: readonly number[], message: Uint8Array | string): { h: number; l: number };
  const siphash: { hash: typeof hash };
  export default siphash;
}
