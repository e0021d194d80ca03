import { randomBytes } from 'node:crypto';
import { afterAll, describe, test } from 'vitest';
import { redact } from './database-servers.js';

/** Where the Redis tests connect unless `SNOWKEY_REDIS_URL` says otherwise. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The Redis server the tests use, or why they are skipped. */
export type RedisResolution =
  | { readonly kind: 'ready'; readonly url: string }
  | { readonly kind: 'skip'; readonly reason: string };

let resolution: Promise<RedisResolution> | undefined;

/**
 * The Redis URL (`SNOWKEY_REDIS_URL`, else the local default), probed once per process. When
 * nobody answers: with `CI=true` it throws (CI never skips a Redis test), otherwise it resolves
 * to `skip` with the reason.
 *
 * @example
 * const redis = await resolveRedis();
 * if (redis.kind === 'ready') await createClient({ url: redis.url }).connect();
 */
export function resolveRedis(): Promise<RedisResolution> {
  resolution ??= resolveRedisUncached(process.env);
  return resolution;
}

/**
 * {@link resolveRedis} without the cache, reading the given environment.
 *
 * @example
 * await resolveRedisUncached({ CI: 'true', SNOWKEY_REDIS_URL: 'redis://127.0.0.1:1' }); // throws
 */
export async function resolveRedisUncached(
  env: Readonly<Record<string, string | undefined>>,
): Promise<RedisResolution> {
  const url = env.SNOWKEY_REDIS_URL || DEFAULT_REDIS_URL;
  const problem = await probe(url);
  if (problem === undefined) return { kind: 'ready', url };
  const where = `Redis at ${redact(url)} (${env.SNOWKEY_REDIS_URL ? 'from SNOWKEY_REDIS_URL' : 'the default'})`;
  if (env.CI === 'true') {
    throw new Error(
      `CI=true and ${where} is unreachable (${problem}). In CI a Redis test fails rather than skips: start redis-server or set SNOWKEY_REDIS_URL.`,
    );
  }
  return { kind: 'skip', reason: `${where} is unreachable (${problem})` };
}

async function probe(url: string): Promise<string | undefined> {
  const { createClient } = await import('redis');
  const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? code : String(err);
  } finally {
    if (client.isOpen) await client.quit().catch(() => {});
  }
}

/** What a Redis describe block hands its tests. */
export interface RedisContext {
  readonly url: string;
  /** A key prefix unique to this block; every key under it is deleted after the block. */
  readonly keyPrefix: string;
}

/**
 * A `describe` titled `title [redis]` whose tests share one Redis server and a key prefix of their
 * own, deleted afterwards. When Redis is unreachable: with `CI=true` the block holds one failing
 * test whose error says so; elsewhere one skipped test with the reason.
 *
 * @example
 * describeRedis('segment store', (ctx) => {
 *   test('GIVEN ...', async () => { const client = await createClient({ url: ctx.url }).connect(); });
 * });
 */
export function describeRedis(title: string, body: (ctx: RedisContext) => void): void {
  describe(`${title} [redis]`, async () => {
    let redis: RedisResolution;
    try {
      redis = await resolveRedis();
    } catch (err) {
      test('GIVEN CI=true THEN the Redis server must be reachable', () => {
        throw err;
      });
      return;
    }
    if (redis.kind === 'skip') {
      console.warn(`[snowkey test harness] redis tests skipped: ${redis.reason}`);
      test.skip(`skipped: ${redis.reason}`, () => {});
      return;
    }
    const keyPrefix = `sk:test:${process.pid}:${randomBytes(4).toString('hex')}:`;
    afterAll(async () => {
      const { createClient } = await import('redis');
      const client = await createClient({ url: redis.url }).connect();
      try {
        const keys: string[] = [];
        for await (const batch of client.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 }))
          keys.push(...batch);
        if (keys.length > 0) await client.del(keys);
      } finally {
        await client.quit();
      }
    });
    body({ url: redis.url, keyPrefix });
  });
}
