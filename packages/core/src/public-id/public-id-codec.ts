import { InvalidArgumentError, InvalidIdError, InvalidPublicIdError } from '../errors.js';
import { isKey, KEY_EXPECTED } from '../id-rule.js';
import { type DerivedKeys, deriveKeys, permute, unpermute } from './feistel.js';
import { keyedCheckDigit } from './keyed-check.js';
import { MAX_KEY_ID, readPublicId, writePublicId } from './public-id-text.js';

declare const publicIdBrand: unique symbol;

/** A public id of entity `E`: 14 URL-safe characters, branded with the entity. */
export type PublicId<E extends string = string> = string & { readonly [publicIdBrand]: E };

/** Options of {@link publicIdCodec}. */
export interface PublicIdOptions<E extends string> {
  /** The secret: 16 random bytes or 32 hex digits; whoever has it can map public ids back to keys. */
  readonly key: Uint8Array | string;
  /** The entity the ids belong to (`'order'`, `'player'`): the tweak, so one key gives each entity its own mapping. */
  readonly entity: E;
  /** The id of `key`, 0..60, the first character of its public ids; give each new key the next. @default 0 */
  readonly keyId?: number;
  /** Keys it decodes with but does not encode with (retired, or next in a rotation). @default [] */
  readonly previous?: ReadonlyArray<{ readonly key: Uint8Array | string; readonly keyId: number }>;
}

/** Turns keys into public ids of one entity and back. From {@link publicIdCodec}. */
export interface PublicIdCodec<E extends string> {
  /** The entity this codec is for. */
  readonly entity: E;
  /** The key id of the key that encodes (`keyId` of the options). */
  readonly keyId: number;
  /** The public id of a key (a bigint in 1..2^63-1) under the current key; anything else is an {@link InvalidIdError}. */
  encode(id: bigint): PublicId<E>;
  /** The key behind a public id of this entity; anything else is an {@link InvalidPublicIdError}. */
  decode(publicId: string, argument?: string): bigint;
  /** Whether `value` is a valid public id of this entity (the check `decode` makes, without throwing). */
  is(value: unknown): value is PublicId<E>;
}

const HEX_KEY = /^[0-9a-fA-F]{32}$/;
const KEY_EXPECTED_TEXT = '16 random bytes: a Uint8Array of length 16, or a string of 32 hex digits';
const KEY_ID_EXPECTED = `an integer in 0..${MAX_KEY_ID}: the key's id, the first character of its public ids`;

function keyBytes(key: unknown, argument: string): Uint8Array {
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
  throw new InvalidArgumentError(argument, KEY_EXPECTED_TEXT, shape);
}

/** The keys of a codec by key id: the current key's, then each previous one's. */
function keySlots(options: PublicIdOptions<string>, tweak: Uint8Array): Array<DerivedKeys | undefined> {
  const slots = new Array<DerivedKeys | undefined>(MAX_KEY_ID + 1).fill(undefined);
  const owners = new Array<string | undefined>(MAX_KEY_ID + 1).fill(undefined);
  const add = (key: unknown, keyId: unknown, at: string) => {
    const idArgument = at ? `${at}.keyId` : 'keyId';
    if (typeof keyId !== 'number' || !Number.isInteger(keyId) || keyId < 0 || keyId > MAX_KEY_ID) {
      throw new InvalidArgumentError(idArgument, KEY_ID_EXPECTED, keyId);
    }
    const owner = owners[keyId];
    if (owner !== undefined) {
      throw new InvalidArgumentError(
        idArgument,
        `${KEY_ID_EXPECTED}, one no other key of the codec has (${owner} has ${keyId})`,
        keyId,
      );
    }
    const master = keyBytes(key, at ? `${at}.key` : 'key');
    slots[keyId] = deriveKeys(master, tweak);
    master.fill(0);
    owners[keyId] = at ? `"${at}"` : 'the current key';
  };
  add(options.key, options.keyId ?? 0, '');
  const previous = options.previous ?? [];
  if (!Array.isArray(previous)) {
    throw new InvalidArgumentError('previous', 'an array of { key, keyId }: the retired keys', previous);
  }
  previous.forEach((entry: unknown, i) => {
    if (entry === null || typeof entry !== 'object') {
      throw new InvalidArgumentError(`previous[${i}]`, 'an object { key, keyId }', entry);
    }
    const { key, keyId } = entry as { key?: unknown; keyId?: unknown };
    add(key, keyId, `previous[${i}]`);
  });
  return slots;
}

/**
 * Public ids: 14-character strings that stand for keys without revealing their count or order
 * (a keyed permutation). Not authentication: still check that the caller may see the row.
 *
 * @example
 * const orders = publicIdCodec({ key: process.env.PUBLIC_ID_KEY!, entity: 'order' });
 * const pid = orders.encode(175928847299117063n); // e.g. '08qHcZnkfven3Q'
 * orders.decode(pid);                              // 175928847299117063n
 */
export function publicIdCodec<const E extends string>(options: PublicIdOptions<E>): PublicIdCodec<E> {
  // A 10-round Feistel network on 31 + 32 bits (FF1's structure), SipHash-2-4 rounds keyed by `key`
  // and `entity`. Text: key id, 11 base-61 digits, a keyed check (another entity's or key's public
  // id passes 1 time in 61) and a typo check (every single typo and adjacent swap refused). Exactly
  // one string per key, so a public id can be a cache key or a unique column as it is.
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', "an object like { key, entity: 'order' }", options);
  }
  const { entity } = options;
  if (typeof entity !== 'string' || entity.length === 0 || entity.length > 100) {
    throw new InvalidArgumentError('entity', 'a non-empty string of at most 100 characters', entity);
  }
  const slots = keySlots(options, new TextEncoder().encode(entity));
  const keyId = options.keyId ?? 0;
  const current = slots[keyId]!;
  const scratch = new Uint32Array(2);
  const parts = new Uint32Array(4);

  const read = (value: string): bigint | InvalidPublicIdError['fault'] => {
    const fault = readPublicId(value, parts);
    if (fault) return fault;
    const keys = slots[parts[0]!];
    if (keys === undefined) return 'key';
    const hi = parts[1]!;
    const lo = parts[2]!;
    if (keyedCheckDigit(keys.check, hi, lo) !== parts[3]) return 'foreign';
    unpermute(keys.rounds, hi, lo, scratch);
    const id = (BigInt(scratch[0]!) << 32n) | BigInt(scratch[1]!);
    return id === 0n ? 'range' : id; // the one value that stands for 0 is no key's
  };

  return Object.freeze({
    entity,
    keyId,
    encode(id: bigint): PublicId<E> {
      if (!isKey(id)) throw new InvalidIdError('id', KEY_EXPECTED, id);
      permute(current.rounds, Number(id >> 32n), Number(BigInt.asUintN(32, id)), scratch);
      const hi = scratch[0]!;
      const lo = scratch[1]!;
      return writePublicId(keyId, hi, lo, keyedCheckDigit(current.check, hi, lo)) as PublicId<E>;
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
