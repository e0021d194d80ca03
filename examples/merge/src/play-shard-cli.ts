import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@snowkey/core';
import { dialectOfUrl } from './database.js';
import type { ShardPlayer } from './merge-scenario.js';
import type { PlayOptions } from './play-simulator.js';
import type { Shard } from './shards.js';

/**
 * Parses `--url URL --server-id N --players N [--writers N] [--seed N]`, the command line of an
 * example's `play-shard-cli.ts`.
 *
 * @example
 * parsePlayShardArgs(['--url', 'file:/tmp/s1.sqlite', '--server-id', '1', '--players', '100']);
 * // { shard: { serverId: 1, label: 'S1', ref: { dialect: 'sqlite', url: 'file:/tmp/s1.sqlite' } }, options: { ... } }
 */
export function parsePlayShardArgs(argv: readonly string[]): { shard: Shard; options: PlayOptions } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      'server-id': { type: 'string' },
      players: { type: 'string' },
      writers: { type: 'string', default: '4' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (!values.url) throw new InvalidArgumentError('--url', 'the shard database URL', values.url);
  const serverId = int('--server-id', values['server-id'], 0, 4095);
  return {
    shard: { serverId, label: `S${serverId}`, ref: { dialect: dialectOfUrl(values.url), url: values.url } },
    options: {
      serverId,
      players: int('--players', values.players, 2, 1_000_000),
      writers: int('--writers', values.writers, 1, 64),
      seed: int('--seed', values.seed, 0, 2 ** 31),
    },
  };
}

/**
 * Plays one shard with `player` as told by `argv` and prints the stats as one JSON line: the
 * child side of `spawnedPlayer`.
 *
 * @example
 * // examples/knex/src/play-shard-cli.ts
 * await runPlayShardCli(knexPlayer, process.argv.slice(2));
 */
export async function runPlayShardCli(player: ShardPlayer, argv: readonly string[]): Promise<void> {
  const { shard, options } = parsePlayShardArgs(argv);
  const stats = await player.play(shard, options);
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}

function int(flag: string, raw: string | undefined, min: number, max: number): number {
  const n = raw !== undefined && /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new InvalidArgumentError(flag, `an integer in ${min}..${max}`, raw);
  return n;
}
