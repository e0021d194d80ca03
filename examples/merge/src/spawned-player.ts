import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@snowkey/core';
import type { ShardPlayer } from './merge-scenario.js';
import type { PlayStats } from './play-simulator.js';

const EXAMPLES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The adapter examples that can play a game server (each has `src/play-shard-cli.ts`). */
export const ADAPTER_EXAMPLES = ['typeorm', 'prisma', 'knex', 'kysely', 'sequelize', 'drizzle'] as const;

/**
 * A {@link ShardPlayer} that runs an adapter example's `src/play-shard-cli.ts` in its own Node
 * process, the way each game server is its own process: `spawnedPlayer('typeorm')` plays through
 * examples/typeorm. The child prints its stats as its last line of JSON.
 *
 * @example
 * await runMergeScenario({ host, prefix: 'demo', players: [spawnedPlayer('knex'), spawnedPlayer('prisma')], playersPerShard: 500 });
 */
export function spawnedPlayer(adapter: string): ShardPlayer {
  const dir = join(EXAMPLES_DIR, adapter);
  const script = join(dir, 'src', 'play-shard-cli.ts');
  if (!(ADAPTER_EXAMPLES as readonly string[]).includes(adapter) || !existsSync(script)) {
    throw new InvalidArgumentError('adapter', `one of ${ADAPTER_EXAMPLES.join(', ')}`, adapter);
  }
  return {
    name: adapter,
    play(shard, options) {
      const args = [
        '--conditions=dev-source',
        '--import',
        'tsx',
        script,
        '--url',
        shard.ref.url,
        '--server-id',
        String(shard.serverId),
        '--players',
        String(options.players),
        '--writers',
        String(options.writers ?? 4),
        '--seed',
        String(options.seed ?? 1),
      ];
      return new Promise<PlayStats>((resolvePlay, reject) => {
        const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => {
          const last = out.trim().split('\n').pop() ?? '';
          if (code !== 0)
            return reject(new Error(`${adapter} play of ${shard.label} exited with ${code}: ${out.trim()}`));
          try {
            resolvePlay(JSON.parse(last) as PlayStats);
          } catch (err) {
            reject(
              new Error(`${adapter} play of ${shard.label} printed no stats: ${out.trim()}`, { cause: err }),
            );
          }
        });
      });
    },
  };
}
