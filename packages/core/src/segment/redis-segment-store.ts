import { InvalidArgumentError } from '../errors.js';
import { SegmentStoreError } from './segment-errors.js';
import type { SegmentGrant, SegmentRequest, SegmentStore } from './segment-store.js';

/** A node-redis client (`sendCommand`, 4+) or an ioredis one (`call`, 5+). */
export type RedisCommandClient =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: string[]): Promise<unknown> };

/** Options of {@link redisSegmentStore}. */
export interface RedisSegmentStoreOptions {
  /** The counter of tag `t` is the key `${keyPrefix}${t}`. Default `snowkey:segment:`. */
  keyPrefix?: string;
}

/**
 * Starts the counter below the first id when the key is missing, adds the count, and returns the
 * counter as a bulk string. Redis's Lua numbers are doubles, so the script never returns INCRBY's
 * integer (above 2^53 it would be rounded); GET's string is exact. One script: atomic.
 */
const TAKE_SCRIPT =
  "redis.call('SET', KEYS[1], ARGV[2], 'NX') redis.call('INCRBY', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])";

/**
 * A segment store on Redis, one `INCRBY` counter per tag. Redis must keep the counter through
 * restarts and failovers or ids repeat: AOF with `appendfsync always`, no failover to a lagging replica.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const orders = new SegmentAllocator({ store: redisSegmentStore(redis), tag: 'orders' });
 */
export function redisSegmentStore(
  client: RedisCommandClient,
  options: RedisSegmentStoreOptions = {},
): SegmentStore {
  const send = commandSender(client);
  const keyPrefix = options.keyPrefix ?? 'snowkey:segment:';
  if (typeof keyPrefix !== 'string') {
    throw new InvalidArgumentError('keyPrefix', 'a string such as "snowkey:segment:"', keyPrefix);
  }
  const incr = async (key: string, by: bigint, floor: bigint) =>
    toCounter(await send(['EVAL', TAKE_SCRIPT, '1', key, String(by), String(floor)]));

  return {
    name: 'redis',
    async prepare(tag, { minId }) {
      try {
        await incr(keyPrefix + tag, 0n, minId - 1n);
      } catch (err) {
        throw new SegmentStoreError(
          `could not prepare the counter of tag "${tag}" in Redis: ${String(err)}`,
          tag,
          'redis',
          {
            cause: err,
          },
        );
      }
      return {};
    },
    async take({ tag, count, minId, maxId }: SegmentRequest): Promise<SegmentGrant | undefined> {
      const key = keyPrefix + tag;
      try {
        let by = BigInt(count);
        let counter = await incr(key, by, minId - 1n);
        if (counter < minId) {
          // The counter is below a minId raised since it was created: jump it past minId at once.
          by = minId - 1n - counter + by;
          counter = await incr(key, by, minId - 1n);
        }
        const start = counter - by; // this call owns start+1..counter
        if (start >= maxId) return undefined;
        return { first: start + 1n < minId ? minId : start + 1n, last: counter > maxId ? maxId : counter };
      } catch (err) {
        throw new SegmentStoreError(
          `could not take a segment of ${count} ids for tag "${tag}" from Redis: ${String(err)}`,
          tag,
          'redis',
          { cause: err },
        );
      }
    },
  };
}

function commandSender(client: RedisCommandClient): (args: string[]) => Promise<unknown> {
  const c = client as Partial<
    Record<'sendCommand' | 'call', (...args: unknown[]) => Promise<unknown>>
  > | null;
  if (c !== null && typeof c === 'object') {
    // ioredis has a sendCommand too, of its own Command objects: try its call() first.
    if (typeof c.call === 'function') return (args) => c.call!(...args);
    if (typeof c.sendCommand === 'function') return (args) => c.sendCommand!(args);
  }
  throw new InvalidArgumentError(
    'client',
    'a Redis client with sendCommand(args) (node-redis: createClient()) or call(command, ...args) (ioredis)',
    client,
  );
}

function toCounter(reply: unknown): bigint {
  const text =
    typeof reply === 'string'
      ? reply
      : reply instanceof Uint8Array
        ? new TextDecoder().decode(reply)
        : undefined;
  if (text === undefined || !/^-?\d+$/.test(text)) {
    throw new InvalidArgumentError('the Redis counter', 'an integer reply', reply);
  }
  return BigInt(text);
}
