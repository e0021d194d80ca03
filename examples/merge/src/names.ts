/**
 * A small seeded PRNG (mulberry32): the same seed draws the same names and actions.
 *
 * @example
 * const rng = seededRandom(42);
 * rng(); // 0.6011037519201636, always
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLAYER_BASES = [
  'Aria',
  'Bram',
  'Cora',
  'Dax',
  'Elin',
  'Fenn',
  'Gale',
  'Hana',
  'Ivo',
  'Juno',
  'Kai',
  'Lyra',
  'Milo',
  'Nora',
  'Orin',
  'Pia',
  'Quill',
  'Rhea',
  'Soren',
  'Tova',
  'Ulf',
  'Vera',
  'Wren',
  'Xan',
  'Yara',
  'Zed',
  'Astra',
  'Brin',
  'Cael',
  'Dara',
  'Eryx',
  'Faye',
  'Gideon',
  'Hollis',
  'Isla',
  'Jorah',
  'Kestrel',
  'Luna',
  'Mira',
  'Nyx',
];

const GUILD_BASES = [
  'Dawnguard',
  'IronWolves',
  'SilverHand',
  'NightOwls',
  'EmberCourt',
  'Stormborn',
  'RedLotus',
  'Frostfang',
  'Sunspire',
  'Blackwater',
  'Moonshadow',
  'Thornwall',
  'Skyreach',
  'Ashen',
];

/**
 * Draws names unique within one server from a pool shared by every server, the way players pick
 * `Aria`, `Aria7`, `Nyx42`: a handful clash across servers and must be renamed on a merge
 * (about one in twenty at the default pool size).
 *
 * @example
 * const names = new NameDrawer('player', 200, seededRandom(1));
 * names.next(); // 'Soren31'
 */
export class NameDrawer {
  readonly #bases: readonly string[];
  readonly #numbers: number;
  readonly #rng: () => number;
  readonly #taken = new Set<string>();

  constructor(kind: 'player' | 'guild', expected: number, rng: () => number, taken: Iterable<string> = []) {
    this.#bases = kind === 'player' ? PLAYER_BASES : GUILD_BASES;
    // About 20 names per one drawn, so two servers of `expected` each share ~5% of their names.
    this.#numbers = Math.max(9, Math.ceil((expected * 20) / this.#bases.length));
    this.#rng = rng;
    for (const name of taken) this.#taken.add(name);
  }

  next(): string {
    for (;;) {
      const base = this.#bases[Math.floor(this.#rng() * this.#bases.length)]!;
      const n = Math.floor(this.#rng() * (this.#numbers + 1));
      const name = n === 0 ? base : `${base}${n}`;
      if (!this.#taken.has(name)) {
        this.#taken.add(name);
        return name;
      }
    }
  }
}
