import { type Job, type ProgressRow, readProgress, saveProgress } from './bookkeeping.js';
import type { MergeDatabase, MergeStatements, SqlValue } from './database.js';
import { selectPage } from './sql.js';

/** A source row as a driver returned it, by column name. */
export type SourceRow = Record<string, unknown>;

/**
 * Reported after every committed batch, and once for a (table, source) already done.
 *
 * @example
 * await runMerge({
 *   ...inputs,
 *   onProgress: (p) => console.log(`${p.phase} ${p.table} ${p.source} ${p.rowsDone}/${p.rowsTotal}`),
 * });
 */
export interface ProgressEvent {
  /** `copy` copies rows; `link` fills in the foreign keys a first pass wrote as NULL. */
  readonly phase: 'copy' | 'link';
  readonly table: string;
  /** The source's label. */
  readonly source: string;
  /** Source rows done, this run and earlier ones. */
  readonly rowsDone: number;
  readonly rowsTotal: number;
  /** This (phase, table, source) is finished. */
  readonly finished: boolean;
}

/**
 * Where a test or a demonstration may stop a run: after a number of batches, or inside a batch
 * after its writes and before its commit (where a crash must leave no trace).
 *
 * @example
 * await runMerge({ ...options, stopAfterBatches: 3 }); // resolves with complete: false
 */
export interface Interruptions {
  /** Stop cleanly after this many batches of this run. */
  readonly stopAfterBatches?: number;
  /** Runs in every batch's transaction after its writes, before its progress row and commit. */
  readonly beforeCommit?: (batch: { phase: string; table: string; source: string; batch: number }) => unknown;
}

/** One (phase, table, source) to go through in key order. */
export interface BatchTask {
  readonly phase: 'copy' | 'link';
  readonly table: string;
  readonly source: number;
  readonly sourceLabel: string;
  readonly db: MergeDatabase;
  readonly columns: readonly string[];
  readonly key: readonly string[];
  readonly total: number;
}

/** What one batch did. */
export interface BatchOutcome {
  readonly copied: number;
  readonly skipped: number;
  readonly collisions: number;
  readonly renames: number;
}

/** What one run of the loop did. */
export interface LoopResult extends BatchOutcome {
  readonly complete: boolean;
  readonly batches: number;
}

/**
 * Goes through every task in order, one keyset page at a time; each page is handled and its
 * progress row saved in one transaction on the target, so a kill at any point loses at most the
 * batch in flight and a rerun starts right after the last committed one.
 */
export async function runBatches(options: {
  job: Job;
  target: MergeDatabase;
  tasks: readonly BatchTask[];
  batchSize: number;
  interruptions?: Interruptions;
  onProgress?: (p: ProgressEvent) => void;
  handle(
    tx: MergeStatements,
    task: BatchTask,
    rows: SourceRow[],
    progress: ProgressRow,
  ): Promise<BatchOutcome>;
}): Promise<LoopResult> {
  const { job, target, batchSize } = options;
  const stop = options.interruptions?.stopAfterBatches;
  const saved = new Map(
    (await readProgress(target, job)).map((p) => [`${p.phase}\u0000${p.table}\u0000${p.source}`, p]),
  );
  const run = { complete: true, batches: 0, copied: 0, skipped: 0, collisions: 0, renames: 0 };
  for (const task of options.tasks) {
    const id = `${task.phase}\u0000${task.table}\u0000${task.source}`;
    let progress: ProgressRow = saved.get(id) ?? {
      phase: task.phase,
      table: task.table,
      source: task.source,
      lastKey: null,
      rowsDone: 0,
      copied: 0,
      skipped: 0,
      collisions: 0,
      renames: 0,
      done: false,
    };
    let isNew = !saved.has(id);
    const report = () =>
      options.onProgress?.({
        phase: task.phase,
        table: task.table,
        source: task.sourceLabel,
        rowsDone: progress.rowsDone,
        rowsTotal: task.total,
        finished: progress.done,
      });
    if (progress.done) report();
    while (!progress.done) {
      if (stop !== undefined && run.batches >= stop) return { ...run, complete: false };
      const page = selectPage(
        task.db.dialect,
        task.table,
        task.columns,
        task.key,
        progress.lastKey,
        batchSize,
      );
      const rows = await task.db.query<SourceRow>(page.sql, page.params);
      const batchNo = run.batches + 1;
      const before = progress;
      const wasNew = isNew;
      const { next, outcome } = await target.transaction(async (tx) => {
        const outcome = await options.handle(tx, task, rows, before);
        await options.interruptions?.beforeCommit?.({
          phase: task.phase,
          table: task.table,
          source: task.sourceLabel,
          batch: batchNo,
        });
        const last = rows[rows.length - 1];
        const next: ProgressRow = {
          ...before,
          lastKey: last ? task.key.map((c) => last[c] as SqlValue) : before.lastKey,
          rowsDone: before.rowsDone + rows.length,
          copied: before.copied + outcome.copied,
          skipped: before.skipped + outcome.skipped,
          collisions: before.collisions + outcome.collisions,
          renames: before.renames + outcome.renames,
          done: rows.length < batchSize,
        };
        await saveProgress(tx, job, next, wasNew);
        return { next, outcome };
      });
      progress = next;
      isNew = false;
      run.batches++;
      run.copied += outcome.copied;
      run.skipped += outcome.skipped;
      run.collisions += outcome.collisions;
      run.renames += outcome.renames;
      report();
    }
  }
  return run;
}
