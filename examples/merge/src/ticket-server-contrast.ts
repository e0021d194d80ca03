import type { MergeRunResult } from '@snowkey/merge';
import type { Knex } from 'knex';
import type { DatabaseHost } from './database-host.js';
import { keyRange } from './key-range.js';
import { type GameVerification, mergeGame } from './merge-game.js';
import { allSettled, withDatabases } from './merge-scenario.js';
import { PlainSqlWriter } from './plain-sql-writer.js';
import { playShard } from './play-simulator.js';
import { createGameDatabase, createShards, type Shard } from './shards.js';
import { TicketCounter } from './ticket-counter.js';

/** Options of the ticket-server contrast. */
export interface TicketServerContrastOptions {
  readonly host: DatabaseHost;
  /** Databases are `<prefix>_tk_s1..s3`, `<prefix>_tk_merged2`, `<prefix>_tk_merged3`. */
  readonly prefix: string;
  readonly playersPerShard: number;
  readonly writers?: number;
  readonly seed?: number;
  readonly batchSize?: number;
}

/** One merge of the ticket-server story. */
export interface TicketPhase {
  /** `step 2, servers 1-2`, ... */
  readonly title: string;
  readonly step: number;
  readonly servers: readonly number[];
  readonly merge: MergeRunResult;
  readonly verification: GameVerification;
}

/**
 * The ticket-server scheme, offset + step per server, in two phases. Phase 1: two servers with
 * step 2 (odd and even keys) merge without a single collision. Phase 2: a third server opens.
 * Step 2 has no free offset, so the step becomes 3 everywhere; servers 1 and 2 go on from their
 * last key in their new series, server 3 starts at 3, 6, 9..., keys that servers 1 and 2 issued
 * under step 2. Merging the three collides.
 *
 * @example
 * const [fixed, grown] = await runTicketServerContrast({ host, prefix: 'demo', playersPerShard: 100 });
 * fixed.merge.totals.collisions; // 0
 * grown.merge.totals.collisions; // > 0
 */
export async function runTicketServerContrast(options: TicketServerContrastOptions): Promise<TicketPhase[]> {
  const prefix = `${options.prefix}_tk`;
  const size = { writers: options.writers, seed: options.seed };
  const shards = await createShards(options.host, prefix, [1, 2], 'snowflake');
  await withDatabases(
    shards.map((s) => s.ref),
    (dbs) =>
      allSettled(
        shards.map((s, i) =>
          playShard(
            new PlainSqlWriter(dbs[i]!, s.ref.dialect, new TicketCounter({ offset: s.serverId, step: 2 })),
            {
              serverId: s.serverId,
              players: options.playersPerShard,
              ...size,
            },
          ),
        ),
      ),
  );
  const fixed = await mergePhase(options, prefix, 'merged2', 'step 2, servers 1 and 2', 2, shards);

  const [third] = await createShards(options.host, prefix, [3], 'snowflake');
  const grown = [...shards, third!];
  await withDatabases(
    grown.map((s) => s.ref),
    (dbs) =>
      allSettled(
        grown.map(async (s, i) => {
          const db = dbs[i]!;
          // One ticket counter serves every table: it goes on from the highest key of any.
          const after = (await keyRange(db))?.max ?? 0n;
          const counter = new TicketCounter({ offset: s.serverId, step: 3, after });
          return playShard(new PlainSqlWriter(db, s.ref.dialect, counter), {
            serverId: s.serverId,
            players: Math.max(2, Math.ceil(options.playersPerShard / 2)),
            takenNames: await takenNames(db),
            ...size,
            seed: (options.seed ?? 1) + 1,
          });
        }),
      ),
  );
  const after = await mergePhase(options, prefix, 'merged3', 'step 3 after server 3 opened', 3, grown);
  return [fixed, after];
}

async function mergePhase(
  options: TicketServerContrastOptions,
  prefix: string,
  name: string,
  title: string,
  step: number,
  shards: readonly Shard[],
): Promise<TicketPhase> {
  const target = await createGameDatabase(options.host, prefix, name);
  const { merge, verification } = await mergeGame({
    sources: shards,
    target,
    batchSize: options.batchSize,
    keyCollisions: 'record',
  });
  return { title, step, servers: shards.map((s) => s.serverId), merge, verification };
}

async function takenNames(db: Knex): Promise<{ players: string[]; guilds: string[] }> {
  const players = (await db('players').select('name')).map((r: { name: string }) => r.name);
  const guilds = (await db('guilds').select('name')).map((r: { name: string }) => r.name);
  return { players, guilds };
}
