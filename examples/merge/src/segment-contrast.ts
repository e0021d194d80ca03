import { type IdRange, SegmentAllocator, shardIdRange } from '@snowkey/core';
import type { MergeRunResult } from '@snowkey/merge';
import { openCounterClient } from './counter-client.js';
import { type DatabaseRef, openDatabase } from './database.js';
import { createFreshDatabase, type DatabaseHost } from './database-host.js';
import { keyRange } from './key-range.js';
import { type GameVerification, mergeGame } from './merge-game.js';
import { allSettled, withDatabases } from './merge-scenario.js';
import { PlainSqlWriter } from './plain-sql-writer.js';
import { playShard } from './play-simulator.js';
import { createGameDatabase, createShards, type Shard } from './shards.js';

/** The segment allocator's table (core's default), in each server's database or the shared one. */
export const SEGMENT_TABLE = 'snowkey_segments';

/** How many servers the slices of {@link segmentSlice} leave room for: the servers of `layouts.gameServer`. */
export const SEGMENT_SLICES = 4096;

/** Options of the segment contrast. */
export interface SegmentContrastOptions {
  readonly host: DatabaseHost;
  /**
   * Databases are `<prefix>_sg_own_s1`, ..., `<prefix>_sg_own_merged`, the same with `sg_slice`
   * and `sg_shared`, and `<prefix>_sg_shared_ids` (the shared counter).
   */
  readonly prefix: string;
  /** Default [1, 2]. */
  readonly serverIds?: readonly number[];
  readonly playersPerShard: number;
  readonly writers?: number;
  readonly seed?: number;
  readonly batchSize?: number;
}

/** Where each server's segment allocator takes its ids from. */
export type SegmentScheme = 'own-counter' | 'own-slice' | 'shared-counter';

/** One merge of the segment story. */
export interface SegmentPhase {
  readonly scheme: SegmentScheme;
  /** `own counter in each server's database`, ... */
  readonly title: string;
  /** The databases of this phase are `<prefix>_<name>_s1`, `<prefix>_<name>_merged`. */
  readonly prefix: string;
  readonly shards: readonly Shard[];
  /** The lowest and highest id each server issued (any game table), by server label. */
  readonly issued: Readonly<Record<string, { min: bigint; max: bigint } | null>>;
  readonly target: DatabaseRef;
  readonly merge: MergeRunResult;
  readonly verification: GameVerification;
}

/**
 * Server `serverId`'s slice of the ids safe as JavaScript Numbers, one of {@link SEGMENT_SLICES}
 * (`shardIdRange`): 2^41-1 ids per server.
 *
 * @example
 * segmentSlice(1); // { minId: 2199023255552n, maxId: 4398046511102n }
 */
export function segmentSlice(serverId: number): IdRange {
  return shardIdRange({ shard: serverId, shards: SEGMENT_SLICES, maxId: Number.MAX_SAFE_INTEGER });
}

/**
 * The same game and the same merge with ids from core's `SegmentAllocator` (Leaf's segment mode,
 * one tag for every table), three ways. A segment id is a number from a counter, with no server id
 * in it:
 *
 * 1. `own-counter`: each server allocates from a counter in its own database. Every server
 *    counts from 1; the merge meets the same keys in every table and the verification fails.
 * 2. `own-slice`: the same, each counter given its server's slice of the id space
 *    ({@link segmentSlice}, `shardIdRange`). The slices are disjoint: the merge is clean.
 * 3. `shared-counter`: every server's allocator takes its segments from one counter in one
 *    database all of them reach. No id is handed out twice: the merge is clean.
 *
 * The allocators' table stays out of the merge: it is the counter, not the game's data.
 *
 * @example
 * const [own, slice, shared] = await runSegmentContrast({ host, prefix: 'demo', playersPerShard: 100 });
 * own.merge.totals.collisions;   // > 0
 * slice.merge.totals.collisions; // 0
 * shared.verification.ok;        // true
 */
export async function runSegmentContrast(
  options: SegmentContrastOptions,
): Promise<[own: SegmentPhase, slice: SegmentPhase, shared: SegmentPhase]> {
  const prefix = `${options.prefix}_sg`;
  const own = await segmentPhase(options, 'own-counter', `${prefix}_own`, (shard) => ({
    counter: shard.ref,
  }));
  const slice = await segmentPhase(options, 'own-slice', `${prefix}_slice`, (shard) => ({
    counter: shard.ref,
    range: segmentSlice(shard.serverId),
  }));
  const counter = await createFreshDatabase(options.host, `${prefix}_shared_ids`);
  const shared = await segmentPhase(options, 'shared-counter', `${prefix}_shared`, () => ({ counter }));
  return [own, slice, shared];
}

const TITLES: Record<SegmentScheme, string> = {
  'own-counter': "own counter in each server's database",
  'own-slice': 'own counter, shardIdRange slice per server',
  'shared-counter': 'one counter all servers share',
};

/** Plays every server with a segment allocator on `where(shard)`'s counter, then merges and verifies. */
async function segmentPhase(
  options: SegmentContrastOptions,
  scheme: SegmentScheme,
  prefix: string,
  where: (shard: Shard) => { counter: DatabaseRef; range?: IdRange },
): Promise<SegmentPhase> {
  const shards = await createShards(options.host, prefix, options.serverIds ?? [1, 2]);
  await allSettled(shards.map((shard) => playWithSegments(shard, where(shard), options)));
  const issued: Record<string, { min: bigint; max: bigint } | null> = {};
  await withDatabases(
    shards.map((s) => s.ref),
    async (dbs) => {
      for (const [i, s] of shards.entries()) issued[s.label] = await keyRange(dbs[i]!);
    },
  );
  const target = await createGameDatabase(options.host, prefix, 'merged');
  const { merge, verification } = await mergeGame({
    sources: shards,
    target,
    batchSize: options.batchSize,
    keyCollisions: 'record',
    // A counter in the servers' own databases is theirs, not the game's.
    exclude: scheme === 'shared-counter' ? undefined : [SEGMENT_TABLE],
  });
  return { scheme, title: TITLES[scheme], prefix, shards, issued, target, merge, verification };
}

/** One server's play on plain Knex, its ids from a `SegmentAllocator` on `counter`. */
async function playWithSegments(
  shard: Shard,
  { counter, range }: { counter: DatabaseRef; range?: IdRange },
  options: SegmentContrastOptions,
): Promise<void> {
  const client = openCounterClient(counter);
  const db = openDatabase(shard.ref);
  // retryMs: on SQLite a segment take finds the file locked while the game commits; try again soon.
  const ids = new SegmentAllocator({ client: client.client, tag: 'game', retryMs: 10, ...range });
  try {
    await ids.ready();
    await playShard(new PlainSqlWriter(db, shard.ref.dialect, ids), {
      serverId: shard.serverId,
      players: options.playersPerShard,
      writers: options.writers,
      seed: options.seed,
    });
  } finally {
    await ids.close();
    await Promise.allSettled([db.destroy(), client.close()]);
  }
}
