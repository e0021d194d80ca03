import { InvalidArgumentError } from '../errors.js';

/** 2^63-1, the largest signed BIGINT: the default `maxId` of a segment tag. */
export const MAX_SIGNED_ID = 2n ** 63n - 1n;

/** A closed range of ids, `minId..maxId`. */
export interface IdRange {
  readonly minId: bigint;
  readonly maxId: bigint;
}

/**
 * Slice `shard` of `shards` equal, disjoint slices of `minId..maxId`: segment ids carry no server
 * id, so servers that may be merged (合服) each need their own slice, fixed for the game's life.
 *
 * @example
 * const range = shardIdRange({ shard: 7, shards: 4096, maxId: Number.MAX_SAFE_INTEGER }); // 2^41-1 ids each
 * const orders = new SegmentAllocator({ client, tag: 'orders', ...range });
 */
export function shardIdRange(options: {
  shard: number;
  shards: number;
  minId?: bigint | number;
  maxId?: bigint | number;
}): IdRange {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with shard and shards', options);
  }
  const { shard, shards } = options;
  if (typeof shards !== 'number' || !Number.isSafeInteger(shards) || shards < 1) {
    throw new InvalidArgumentError('shards', 'a positive integer', shards);
  }
  if (typeof shard !== 'number' || !Number.isSafeInteger(shard) || shard < 0 || shard >= shards) {
    throw new InvalidArgumentError('shard', `an integer in 0..${shards - 1}`, shard);
  }
  const min = idBound('minId', options.minId, 1n);
  const max = idBound('maxId', options.maxId, MAX_SIGNED_ID);
  const size = (max - min + 1n) / BigInt(shards);
  if (size < 1n) {
    throw new InvalidArgumentError('shards', `at most the ${max - min + 1n} ids of ${min}..${max}`, shards);
  }
  const minId = min + BigInt(shard) * size;
  return { minId, maxId: minId + size - 1n };
}

/** An optional id bound given as a bigint or a safe-integer Number, in `1..2^63-1`, or `fallback`. */
export function idBound(name: string, value: unknown, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  const id =
    typeof value === 'bigint'
      ? value
      : typeof value === 'number' && Number.isSafeInteger(value)
        ? BigInt(value)
        : undefined;
  if (id === undefined || id < 1n || id > MAX_SIGNED_ID) {
    throw new InvalidArgumentError(name, 'a bigint (or a safe-integer Number) in 1..2^63-1', value);
  }
  return id;
}
