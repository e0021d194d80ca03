import type { RedisCommandClient } from '@snowkey/core';

/** The Redis clients the Redis store supports. */
export type RedisClientKind = 'node-redis' | 'ioredis';

/** A connected client of `kind` and how to close it. */
export async function openRedis(
  kind: RedisClientKind,
  url: string,
  options: { failFast?: boolean } = {},
): Promise<{ client: RedisCommandClient; close(): Promise<void> }> {
  if (kind === 'node-redis') {
    const { createClient } = await import('redis');
    // failFast: a command sent while disconnected fails at once instead of waiting for a reconnect.
    const client = createClient({ url, disableOfflineQueue: options.failFast ?? false });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      close: async () => {
        if (client.isOpen) await client.quit().catch(() => client.destroy());
      },
    };
  }
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: !(options.failFast ?? false),
    maxRetriesPerRequest: options.failFast ? 0 : 20,
  });
  client.on('error', () => {});
  await client.connect();
  return {
    client,
    close: async () => {
      client.disconnect();
    },
  };
}

/**
 * Wraps a client so every counter the store's script returned is recorded with the increment it
 * was sent: each (counter, by) pair is the range counter-by+1..counter that Redis handed to that
 * caller alone. An oracle independent of the allocator.
 */
export function recordingRedis(client: RedisCommandClient) {
  const taken: [bigint, bigint][] = [];
  const send =
    'call' in client
      ? (args: string[]) => client.call(args[0]!, ...args.slice(1))
      : (args: string[]) => client.sendCommand(args);
  const recorded: RedisCommandClient = {
    async sendCommand(args: string[]) {
      const reply = await send(args);
      if (args[0] === 'EVAL' && args[4] !== '0') {
        const counter = BigInt(String(reply));
        taken.push([counter - BigInt(args[4]!) + 1n, counter]);
      }
      return reply;
    },
  };
  return { client: recorded, taken };
}
