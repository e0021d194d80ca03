// flake-idgen ships no types; only what the benchmark uses.
declare module 'flake-idgen' {
  export default class FlakeId {
    constructor(options?: { id?: number; datacenter?: number; worker?: number; epoch?: number });
    /** An 8-byte big-endian id; throws when the millisecond's sequence is used up. */
    next(): Buffer;
  }
}
