import { InvalidArgumentError, layouts } from '@snowkey/core';
import type { MergeRunResult, ProgressEvent } from '@snowkey/merge';
import type { Knex } from 'knex';
import { type DatabaseRef, openDatabase } from './database.js';
import type { DatabaseHost } from './database-host.js';
import { countRows } from './game-rows.js';
import { type GameVerification, mergeGame } from './merge-game.js';
import type { PlayOptions, PlayStats } from './play-simulator.js';
import { createGameDatabase, createShards, type Shard } from './shards.js';

/**
 * Plays one shard through some data layer: an adapter example (TypeORM, Prisma, Knex) or the
 * plain generator. It opens its own connection to `shard.ref`; its ids must come from a
 * generator with `layouts.gameServer` and `serverId: shard.serverId`.
 */
export interface ShardPlayer {
  /** `knex`, `typeorm`, `prisma`, ... for the report. */
  readonly name: string;
  play(shard: Shard, options: PlayOptions): Promise<PlayStats>;
}

/** Options of {@link runMergeScenario}. */
export interface MergeScenarioOptions {
  readonly host: DatabaseHost;
  /** Database names start with it: `<prefix>_s1`, `<prefix>_merged`. */
  readonly prefix: string;
  /** One player for every shard, or one per shard. */
  readonly players: ShardPlayer | readonly ShardPlayer[];
  /** Default [1, 2]. */
  readonly serverIds?: readonly number[];
  readonly playersPerShard: number;
  readonly writers?: number;
  readonly seed?: number;
  readonly batchSize?: number;
  readonly onProgress?: (p: ProgressEvent) => void;
  /** Told of each step as it starts. */
  readonly onStep?: (step: string) => void;
  /** Players written so far on each shard, about once a second while the servers play. */
  readonly onPlayProgress?: (players: readonly { label: string; players: number }[]) => void;
  /** The plays, as soon as every server has finished (before the merge starts). */
  readonly onPlayed?: (plays: MergeScenarioResult['plays']) => void;
}

/** What {@link runMergeScenario} did and found. */
export interface MergeScenarioResult {
  readonly shards: readonly Shard[];
  readonly plays: readonly (PlayStats & { adapter: string; label: string })[];
  readonly target: DatabaseRef;
  readonly merge: MergeRunResult;
  readonly verification: GameVerification;
}

/**
 * The whole 合服 story with snowflake keys: create one database per server, play on all of them
 * at once (each through its {@link ShardPlayer}), merge them into `<prefix>_merged`, verify.
 *
 * @example
 * const result = await runMergeScenario({
 *   host: { dialect: 'sqlite', dir: '.tmp/demo' }, prefix: 'demo',
 *   players: knexPlayer, playersPerShard: 500,
 * });
 * result.verification.ok; // true
 */
export async function runMergeScenario(options: MergeScenarioOptions): Promise<MergeScenarioResult> {
  const serverIds = options.serverIds ?? [1, 2];
  const players = Array.isArray(options.players) ? options.players : serverIds.map(() => options.players);
  if (players.length !== serverIds.length) {
    throw new InvalidArgumentError(
      'players',
      `one ShardPlayer or ${serverIds.length} (one per server)`,
      players,
    );
  }
  const step = options.onStep ?? (() => {});
  step(`creating ${serverIds.length} shard databases on ${options.host.dialect}`);
  const shards = await createShards(options.host, options.prefix, serverIds);
  step(`playing on ${shards.map((s, i) => `${s.label} (${(players[i] as ShardPlayer).name})`).join(', ')}`);
  const stopWatching = options.onPlayProgress ? watchPlayers(shards, options.onPlayProgress) : () => {};
  const plays = await allSettled(
    shards.map(async (shard, i) => {
      const player = players[i] as ShardPlayer;
      const stats = await player.play(shard, {
        serverId: shard.serverId,
        players: options.playersPerShard,
        writers: options.writers,
        seed: options.seed,
      });
      return { ...stats, adapter: player.name, label: shard.label };
    }),
  ).finally(stopWatching);
  options.onPlayed?.(plays);
  const target = await createGameDatabase(options.host, options.prefix, 'merged');
  step(`merging ${shards.map((s) => s.label).join(' + ')} into ${target.label}`);
  const { merge, verification } = await mergeGame({
    sources: shards,
    target,
    batchSize: options.batchSize,
    onProgress: options.onProgress,
    layout: layouts.gameServer,
  });
  return { shards, plays, target, merge, verification };
}

/**
 * Opens Knex on each database, runs `body`, and closes them all whatever happens.
 *
 * @example
 * const n = await withDatabases([ref], ([db]) => countRows(db!, 'players'));
 */
/** Counts each shard's players every second until the returned function is called. */
function watchPlayers(
  shards: readonly Shard[],
  report: NonNullable<MergeScenarioOptions['onPlayProgress']>,
): () => void {
  const dbs = shards.map((s) => openDatabase(s.ref));
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    Promise.all(
      shards.map(async (s, i) => ({ label: s.label, players: await countRows(dbs[i]!, 'players') })),
    )
      .then(report, () => {}) // a count that meets a busy shard is skipped: the next one comes in a second
      .finally(() => {
        busy = false;
      });
  }, 1000);
  return () => {
    clearInterval(timer);
    void Promise.all(dbs.map((d) => d.destroy()));
  };
}

export async function withDatabases<T>(
  refs: readonly DatabaseRef[],
  body: (dbs: Knex[]) => Promise<T>,
): Promise<T> {
  const dbs = refs.map((r) => openDatabase(r));
  try {
    return await body(dbs);
  } finally {
    await Promise.all(dbs.map((d) => d.destroy()));
  }
}

/**
 * Like `Promise.all`, but waits for every promise to settle before rejecting with the first
 * failure, so no play is still running (and holding connections) when the caller moves on.
 *
 * @example
 * const stats = await allSettled(shards.map((s) => play(s)));
 */
export async function allSettled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
