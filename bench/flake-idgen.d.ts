// flake-idgen ships no types: only what the generation bench calls.
declare module 'flake-idgen' {
  export default class FlakeId {
    constructor(options?: { id?: number });
    /** An 8-byte big-endian id; throws once the millisecond's 4096 are used. */
    next(): Buffer;
  }
}
