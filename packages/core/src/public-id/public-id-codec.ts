import { InvalidArgumentError, InvalidIdError, InvalidPublicIdError } from '../errors.js';
import { isKey, KEY_EXPECTED } from '../id-rule.js';
import { deriveKeys, permute, unpermute } from './feistel.js';
import { readPublicId, writePublicId } from './public-id-text.js';

declare const publicIdBrand: unique symbol;

/**
 * A public id of entity `E`: 12 URL-safe characters that stand for a key without showing it.
 * Branded with the entity, so an order's public id cannot be passed where a player's is expected.
 *
 * @example
 * const orders = publicIdCodec({ key: process.env.PUBLIC_ID_KEY!, entity: 'order' });
 * const pid: PublicId<'order'> = orders.encode(175928847299117063n);
 */
export type PublicId<E extends string = string> = string & { readonly [publicIdBrand]: E };

/**
 * Options of {@link publicIdCodec}.
 *
 * @example
 * const options: PublicIdOptions<'order'> = { key: process.env.PUBLIC_ID_KEY!, entity: 'order' };
 */
export interface PublicIdOptions<E extends string> {
  /**
   * The secret: 16 random bytes, as a `Uint8Array` or 32 hex digits
   * (`node -e "console.log(crypto.randomBytes(16).toString('hex'))"`). Keep it like a session
   * secret; whoever has it can map public ids back to keys.
   */
  readonly key: Uint8Array | string;
  /** The entity the ids belong to (`'order'`, `'player'`): the tweak, so one key gives each entity its own mapping. */
  readonly entity: E;
}

/**
 * Turns keys into public ids of one entity and back. From {@link publicIdCodec}.
 *
 * @example
 * const players = publicIdCodec({ key: process.env.PUBLIC_ID_KEY!, entity: 'player' });
 * players.decode(players.encode(42n)); // 42n
 */
export interface PublicIdCodec<E extends string> {
  /** The entity this codec is for. */
  readonly entity: E;
  /** The public id of a key (a bigint in 1..2^63-1); anything else is an {@link InvalidIdError}. */
  encode(id: bigint): PublicId<E>;
  /**
   * The key behind a public id of this entity. Anything but the exact string `encode` writes for a
   * key is an {@link InvalidPublicIdError} naming `argument` (default `'publicId'`) and the fault.
   */
  decode(publicId: string, argument?: string): bigint;
  /** Whether `value` is a valid public id of this entity (the check `decode` makes, without throwing). */
  is(value: unknown): value is PublicId<E>;
}

const HEX_KEY = /^[0-9a-fA-F]{32}$/;
const KEY_EXPECTED_TEXT = '16 random bytes: a Uint8Array of length 16, or a string of 32 hex digits';

function keyBytes(key: unknown): Uint8Array {
  if (key instanceof Uint8Array && key.length === 16) return key.slice();
  if (typeof key === 'string' && HEX_KEY.test(key)) {
    return Uint8Array.from({ length: 16 }, (_, i) => Number.parseInt(key.slice(2 * i, 2 * i + 2), 16));
  }
  // Never echo a secret, not even a wrong one, into an error message that may reach a log.
  const shape =
    typeof key === 'string'
      ? `<a string of ${key.length} characters, not shown>`
      : key instanceof Uint8Array
        ? `<a Uint8Array of length ${key.length}, not shown>`
        : key;
  throw new InvalidArgumentError('key', KEY_EXPECTED_TEXT, shape);
}

/**
 * A codec for **public ids**: short, URL-safe strings that stand for keys without revealing them.
 * Sequential or time-ordered keys in URLs tell anyone how many orders or players there are and
 * when each was made; a public id is a keyed, reversible permutation of the 63-bit key space, so
 * neighbouring keys get unrelated public ids, and only the holder of the key can map them back.
 *
 * - The permutation: a 10-round alternating Feistel network on 31 + 32 bits (FF1's structure) with
 *   SipHash-2-4 as the keyed round function, round keys derived from `key` and `entity`. Pure
 *   JavaScript, synchronous, the same in Node, browsers and edge runtimes.
 * - The text: 11 base-61 digits (0-9, A-Z, a-z without `l`) and a check character (weighted sum
 *   mod 61, offset by a value derived from the key and entity): every single typo and every swap
 *   of two characters is refused, and so are 60 in 61 public ids of another entity.
 * - Exactly one string per key: case, length, the check and the range are all checked, so a
 *   public id can be a cache key or a unique column without normalising it.
 *
 * It hides counts and order; it is not authentication: check that the caller may see the row.
 *
 * @example
 * const orders = publicIdCodec({ key: process.env.PUBLIC_ID_KEY!, entity: 'order' });
 * const pid = orders.encode(175928847299117063n); // e.g. '3kTMd9fLq0Zb': 12 characters
 * orders.decode(pid);                              // 175928847299117063n
 * orders.decode('3kTMd9fLq0Zc');                   // InvalidPublicIdError: ... the check character does not match ...
 */
export function publicIdCodec<const E extends string>(options: PublicIdOptions<E>): PublicIdCodec<E> {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', "an object like { key, entity: 'order' }", options);
  }
  const master = keyBytes(options.key);
  const { entity } = options;
  if (typeof entity !== 'string' || entity.length === 0 || entity.length > 100) {
    throw new InvalidArgumentError('entity', 'a non-empty string of at most 100 characters', entity);
  }
  const { rounds, checkOffset } = deriveKeys(master, new TextEncoder().encode(entity));
  master.fill(0);
  const scratch = new Uint32Array(2);
  const permuted = new Uint32Array(2);

  const read = (value: string): bigint | InvalidPublicIdError['fault'] => {
    const fault = readPublicId(value, checkOffset, permuted);
    if (fault) return fault;
    unpermute(rounds, permuted[0]!, permuted[1]!, scratch);
    const id = (BigInt(scratch[0]!) << 32n) | BigInt(scratch[1]!);
    return id === 0n ? 'range' : id; // the one string that stands for 0 is no key's
  };

  return Object.freeze({
    entity,
    encode(id: bigint): PublicId<E> {
      if (!isKey(id)) throw new InvalidIdError('id', KEY_EXPECTED, id);
      permute(rounds, Number(id >> 32n), Number(BigInt.asUintN(32, id)), scratch);
      return writePublicId(scratch[0]!, scratch[1]!, checkOffset) as PublicId<E>;
    },
    decode(publicId: string, argument = 'publicId'): bigint {
      const result = typeof publicId === 'string' ? read(publicId) : 'type';
      if (typeof result === 'bigint') return result;
      throw new InvalidPublicIdError(argument, entity, result, publicId);
    },
    is(value: unknown): value is PublicId<E> {
      return typeof value === 'string' && typeof read(value) === 'bigint';
    },
  });
}
