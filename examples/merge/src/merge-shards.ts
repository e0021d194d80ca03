import { InvalidArgumentError, parseId } from '@snowkey/core';
import type { Knex } from 'knex';
import { keyValues } from './database.js';
import { countRows, type GameRow, readPage } from './game-rows.js';
import { GAME_TABLES, type TableSpec } from './game-schema.js';
import {
  claimSourceOrder,
  ensureMergeTables,
  MERGE_TABLES,
  type MergeTotals,
  type ProgressRow,
  readMergeTotals,
  readProgress,
  saveProgress,
} from './merge-bookkeeping.js';
import { resolveNameClashes } from './name-clashes.js';

/** One shard to merge: its database and its server id (used for rename suffixes). */
export interface MergeSource {
  readonly serverId: number;
  readonly db: Knex;
  /** For progress lines; default `S<serverId>`. */
  readonly label?: string;
}

/** Reported after every committed batch. */
export interface MergeProgress {
  readonly table: string;
  readonly serverId: number;
  readonly label: string;
  /** Rows of this table from this source now in the target (this run and earlier ones). */
  readonly copied: number;
  /** Rows of this table in the source. */
  readonly total: number;
  readonly done: boolean;
}

/** Options of {@link mergeShards}. */
export interface MergeOptions {
  readonly sources: readonly MergeSource[];
  /** The merged database; it must already have the game tables. */
  readonly target: Knex;
  /** Rows per batch (one transaction each). Default 500. */
  readonly batchSize?: number;
  readonly onProgress?: (progress: MergeProgress) => void;
  /** Stop cleanly after this many batches of this run (the resume demonstration). */
  readonly stopAfterBatches?: number;
  /**
   * Runs inside every batch's transaction after its rows are inserted and before its progress is
   * saved: where a crash must leave no trace. Tests use it to pause or fail there.
   */
  readonly beforeCommit?: (batch: { table: string; serverId: number; batch: number }) => Promise<void> | void;
}

/** What one run of {@link mergeShards} did. */
export interface MergeRun {
  /** False when `stopAfterBatches` stopped it early. */
  readonly complete: boolean;
  readonly batches: number;
  /** Rows this run inserted. */
  readonly rowsCopied: number;
  /** Source rows this run found with their key already taken in the target (left out). */
  readonly collisions: number;
  /** Names this run renamed. */
  readonly renames: number;
  /**
   * The merge so far, this run and every earlier one on the same target: after a kill and a
   * resume, or a rerun of a finished merge, the same as one uninterrupted run.
   */
  readonly totals: MergeTotals;
  readonly elapsedMs: number;
}

const MAX_SERVER_ID = 4095;

/**
 * Merges game shards into one database (合服): each table in foreign-key order, each source in
 * the given order, in keyset batches by id. Each batch is one transaction that inserts the rows
 * not yet there, renames clashing player and guild names (`Aria` -> `Aria.S2`, recorded in
 * `snowkey_merge_renames`), records any key collision, and saves the progress row. Killed at any
 * point and run again, it carries on from the last committed batch and ends with exactly the
 * rows an uninterrupted run writes; run again after it finished, it changes nothing, and its
 * `totals` are those of the first run.
 *
 * The sources' order is fixed by the first run: a later run with other sources or another order
 * is refused (`InvalidArgumentError` naming `sources`) before it copies anything.
 *
 * A source row whose key is already in the target is a collision (a resumed run never meets its
 * own rows again, so the key is another row's): it is not copied, and it is recorded in
 * `snowkey_merge_collisions`. With snowflake keys there are none.
 *
 * @example
 * const run = await mergeShards({
 *   sources: [{ serverId: 1, db: s1 }, { serverId: 2, db: s2 }],
 *   target: merged,
 *   onProgress: (p) => console.log(`${p.table} ${p.label} ${p.copied}/${p.total}`),
 * });
 * run.rowsCopied;        // 24817 (this run)
 * run.totals.collisions; // 0, over every run on this target
 */
export async function mergeShards(options: MergeOptions): Promise<MergeRun> {
  const batchSize = options.batchSize ?? 500;
  validate(options, batchSize);
  const { target } = options;
  const started = performance.now();
  await ensureMergeTables(target);
  await claimSourceOrder(
    target,
    options.sources.map((s) => s.serverId),
  );
  const run = { complete: true, batches: 0, rowsCopied: 0, collisions: 0, renames: 0 };
  const finish = async (): Promise<MergeRun> => ({
    ...run,
    totals: await readMergeTotals(target),
    elapsedMs: performance.now() - started,
  });

  for (const table of GAME_TABLES) {
    for (const source of options.sources) {
      const label = source.label ?? `S${source.serverId}`;
      let progress = await readProgress(target, table.name, source.serverId);
      const total = await countRows(source.db, table.name);
      const report = () =>
        options.onProgress?.({
          table: table.name,
          serverId: source.serverId,
          label,
          copied: progress.rowsCopied,
          total,
          done: progress.done,
        });
      let batchesHere = 0;
      while (!progress.done) {
        if (options.stopAfterBatches !== undefined && run.batches >= options.stopAfterBatches) {
          run.complete = false;
          return finish();
        }
        const page = await readPage(source.db, table, progress.lastId, batchSize);
        const batchNo = run.batches + 1;
        const before = progress;
        progress = await target.transaction(async (trx) => {
          const step = await copyBatch(trx, table, page, source.serverId);
          await options.beforeCommit?.({ table: table.name, serverId: source.serverId, batch: batchNo });
          const next: ProgressRow = {
            ...before,
            lastId: page.length > 0 ? page[page.length - 1]!.id : before.lastId,
            rowsCopied: before.rowsCopied + step.inserted,
            collisions: before.collisions + step.collisions,
            done: page.length < batchSize,
          };
          await saveProgress(trx, next);
          run.rowsCopied += step.inserted;
          run.collisions += step.collisions;
          run.renames += step.renames;
          return next;
        });
        run.batches++;
        batchesHere++;
        report();
      }
      if (batchesHere === 0) report();
    }
  }
  return finish();
}

/** Inserts one page into the target inside `trx`. */
async function copyBatch(
  trx: Knex.Transaction,
  table: TableSpec,
  page: GameRow[],
  serverId: number,
): Promise<{ inserted: number; collisions: number; renames: number }> {
  if (page.length === 0) return { inserted: 0, collisions: 0, renames: 0 };
  // Each batch commits with its progress row, so a resumed run starts after its own rows and never
  // meets them again: a key already in the target is always another row's, a collision, even
  // when every value matches (with AUTO_INCREMENT keys two servers' `guild_members` 7 can agree
  // on guild 3, player 12, role and millisecond and still be two memberships).
  const taken = new Set(
    (
      await trx(table.name)
        .select('id')
        .whereIn('id', keyValues(page.map((r) => r.id)))
    ).map((r: { id: unknown }) => parseId(r.id)),
  );
  const fresh = page.filter((r) => !taken.has(r.id)).map((r) => ({ ...r }));
  const collided = page.filter((r) => taken.has(r.id)).map((r) => r.id);

  const renames = table.nameColumn ? await resolveNameClashes(trx, table, fresh, serverId) : [];
  // A few hundred rows per statement stays under every driver's bound-parameter limit.
  for (let i = 0; i < fresh.length; i += 200) await trx(table.name).insert(fresh.slice(i, i + 200));
  if (renames.length > 0) {
    await trx(MERGE_TABLES.renames).insert(
      renames.map((r) => ({
        table_name: r.table,
        entity_id: r.id,
        source_server: r.serverId,
        old_name: r.oldName,
        new_name: r.newName,
      })),
    );
  }
  for (let i = 0; i < collided.length; i += 200) {
    await trx(MERGE_TABLES.collisions).insert(
      collided
        .slice(i, i + 200)
        .map((id) => ({ table_name: table.name, source_server: serverId, entity_id: id })),
    );
  }
  return { inserted: fresh.length, collisions: collided.length, renames: renames.length };
}

function validate(options: MergeOptions, batchSize: number): void {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new InvalidArgumentError('batchSize', 'an integer in 1..10000', batchSize);
  }
  if (!Array.isArray(options.sources) || options.sources.length === 0) {
    throw new InvalidArgumentError('sources', 'a non-empty array of { serverId, db }', options.sources);
  }
  const seen = new Set<number>();
  for (const s of options.sources) {
    if (!Number.isInteger(s.serverId) || s.serverId < 0 || s.serverId > MAX_SERVER_ID) {
      throw new InvalidArgumentError('sources[].serverId', `an integer in 0..${MAX_SERVER_ID}`, s.serverId);
    }
    if (seen.has(s.serverId)) {
      throw new InvalidArgumentError('sources[].serverId', 'distinct server ids', s.serverId);
    }
    seen.add(s.serverId);
  }
  const stop = options.stopAfterBatches;
  if (stop !== undefined && (!Number.isInteger(stop) || stop < 0)) {
    throw new InvalidArgumentError('stopAfterBatches', 'a non-negative integer', stop);
  }
}
