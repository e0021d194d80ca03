import type { MergeRunResult } from '@snowkey/merge';
import type { Knex } from 'knex';
import type { DatabaseRef } from './database.js';
import type { DatabaseHost } from './database-host.js';
import { readPage } from './game-rows.js';
import { tableSpec } from './game-schema.js';
import { type GameVerification, mergeGame } from './merge-game.js';
import { allSettled, withDatabases } from './merge-scenario.js';
import { PlainSqlWriter } from './plain-sql-writer.js';
import { type PlayStats, playShard } from './play-simulator.js';
import { type RekeyedMerge, rekeyAndMerge } from './rekey-contrast.js';
import { createGameDatabase, createShards, type Shard } from './shards.js';

/** Options of the AUTO_INCREMENT contrast. */
export interface AutoIncrementContrastOptions {
  readonly host: DatabaseHost;
  /** Databases are `<prefix>_ai_s1`, ..., `<prefix>_ai_merged`. */
  readonly prefix: string;
  readonly serverIds?: readonly number[];
  readonly playersPerShard: number;
  readonly writers?: number;
  readonly seed?: number;
  readonly batchSize?: number;
}

/** What the AUTO_INCREMENT flow hit. */
export interface AutoIncrementContrastResult {
  readonly shards: readonly Shard[];
  readonly plays: readonly PlayStats[];
  readonly target: DatabaseRef;
  readonly merge: MergeRunResult;
  readonly verification: GameVerification;
  /** What the database says to a plain copy of the second server's first player, as it is. */
  readonly plainCopyError: string | null;
  /** The same shards re-keyed with `@snowkey/merge` and merged: what fixes it. */
  readonly rekeyed: RekeyedMerge;
}

/**
 * The same game and the same merge with AUTO_INCREMENT keys: every server counts 1, 2, 3..., so
 * the merge meets the same keys on every shard. The engine refuses to overwrite: each colliding
 * row is left out and recorded (`keyCollisions: 'record'`), and rows that point at a left-out row
 * now point at another server's row (the foreign key still resolves, to the wrong player). The
 * verification reports all of it. Then the fix: each shard re-keyed with `@snowkey/merge`, and
 * merged without a collision.
 *
 * @example
 * const r = await runAutoIncrementContrast({ host, prefix: 'demo', playersPerShard: 100 });
 * r.merge.totals.collisions; // e.g. 1342
 * r.verification.problems;   // ['players: 200 rows in the shards, 100 merged', ...]
 */
export async function runAutoIncrementContrast(
  options: AutoIncrementContrastOptions,
): Promise<AutoIncrementContrastResult> {
  const prefix = `${options.prefix}_ai`;
  const shards = await createShards(options.host, prefix, options.serverIds ?? [1, 2], 'autoincrement');
  const plays = await withDatabases(
    shards.map((s) => s.ref),
    (dbs) =>
      allSettled(
        shards.map((s, i) =>
          playShard(new PlainSqlWriter(dbs[i]!, s.ref.dialect, 'database'), {
            serverId: s.serverId,
            players: options.playersPerShard,
            writers: options.writers,
            seed: options.seed,
          }),
        ),
      ),
  );
  const target = await createGameDatabase(options.host, prefix, 'merged', 'autoincrement');
  // The engine's default stops at the first key collision; `record` goes on to show the damage.
  const { merge, verification } = await mergeGame({
    sources: shards,
    target,
    batchSize: options.batchSize,
    keyCollisions: 'record',
  });
  const plainCopyError = await withDatabases([target, ...shards.map((s) => s.ref)], ([t, , s2]) =>
    tryPlainCopy(s2, t!),
  );
  const rekeyed = await rekeyAndMerge(options.host, prefix, shards);
  return { shards, plays, target, merge, verification, plainCopyError, rekeyed };
}

/** Inserts the source's first player into the target as it is, the naive copy; returns the error. */
async function tryPlainCopy(source: Knex | undefined, target: Knex): Promise<string | null> {
  if (!source) return null;
  const [first] = await readPage(source, tableSpec('players'), -1n, 1);
  if (!first) return null;
  try {
    await target.transaction(async (trx) => {
      await trx('players').insert(first);
      throw new RolledBack();
    });
    return null;
  } catch (err) {
    if (err instanceof RolledBack) return null;
    return (err as Error).message.split('\n')[0]!.replace(/^insert into .*? - /, '');
  }
}

/** Undoes the probe insert when the database accepted it. */
class RolledBack extends Error {}
