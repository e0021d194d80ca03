import { type Job, type Phase, type ProgressRow, readProgress, saveProgress } from './bookkeeping.js';
import type { MergeSqlClient } from './database.js';

/** Reported after every committed chunk, and once for a (phase, table, source) already done. */
export interface ProgressEvent {
  /**
   * `stage` reads the sources into the target's staging tables; `analyze` finds every conflict and
   * decides it; `map` assigns a rekey's new ids; `copy` writes the rows; `link` fills in the
   * foreign keys the copy wrote as NULL.
   */
  readonly phase: Phase;
  readonly table: string;
  /** The source's label. */
  readonly source: string;
  /** Source rows done, this run and earlier ones. */
  readonly rowsDone: number;
  /** Source rows in all (in the `stage` phase, the database's estimate). */
  readonly rowsTotal: number;
  /** This (phase, table, source) is finished. */
  readonly finished: boolean;
}

/**
 * Where a test or a demonstration may stop a run: after a number of chunks, or inside a chunk
 * after its writes and before its commit (where a crash must leave no trace).
 */
export interface Interruptions {
  /** Stop cleanly after this many chunks (transactions) of this run. */
  readonly stopAfterBatches?: number;
  /** Runs in every chunk's transaction after its writes, before its progress row and commit. */
  readonly beforeCommit?: (batch: { phase: string; table: string; source: string; batch: number }) => unknown;
}

const id = (phase: string, table: string, source: number) => `${phase}\u0000${table}\u0000${source}`;

/**
 * A job's progress rows as one run sees them: each chunk saves its row inside its own transaction
 * (so a kill loses at most the chunk in flight), then counts, reports, and says whether to go on.
 */
export class ProgressLedger {
  batches = 0;
  /** What the copy chunks of this run did. */
  readonly run = { copied: 0, skipped: 0, collisions: 0, renames: 0 };
  readonly #rows = new Map<string, ProgressRow>();
  readonly #saved = new Set<string>();

  private constructor(
    readonly job: Job,
    readonly interruptions: Interruptions | undefined,
    readonly onProgress: ((p: ProgressEvent) => void) | undefined,
  ) {}

  static async open(
    db: MergeSqlClient,
    job: Job,
    interruptions?: Interruptions,
    onProgress?: (p: ProgressEvent) => void,
  ): Promise<ProgressLedger> {
    const ledger = new ProgressLedger(job, interruptions, onProgress);
    for (const p of await readProgress(db, job)) {
      ledger.#rows.set(id(p.phase, p.table, p.source), p);
      ledger.#saved.add(id(p.phase, p.table, p.source));
    }
    return ledger;
  }

  /** The row of (phase, table, source): saved, or a fresh one. */
  get(phase: Phase, table: string, source: number): ProgressRow {
    return (
      this.#rows.get(id(phase, table, source)) ?? {
        phase,
        table,
        source,
        lastKey: null,
        rowsDone: 0,
        copied: 0,
        skipped: 0,
        collisions: 0,
        renames: 0,
        done: false,
      }
    );
  }

  /** Every row of a phase. */
  all(phase: Phase): ProgressRow[] {
    return [...this.#rows.values()].filter((p) => p.phase === phase);
  }

  /** Forgets rows (their phase runs again); the caller deletes them in the database. */
  forget(phases: readonly Phase[]): void {
    for (const [k, p] of this.#rows) {
      if (phases.includes(p.phase)) {
        this.#rows.delete(k);
        this.#saved.delete(k);
      }
    }
  }

  /** True when `stopAfterBatches` chunks have committed in this run. */
  get stopping(): boolean {
    const stop = this.interruptions?.stopAfterBatches;
    return stop !== undefined && this.batches >= stop;
  }

  /** Inside a chunk's transaction: the interruption hook, then the progress row. */
  async save(tx: MergeSqlClient, row: ProgressRow, label: string): Promise<void> {
    await this.interruptions?.beforeCommit?.({
      phase: row.phase,
      table: row.table,
      source: label,
      batch: this.batches + 1,
    });
    const k = id(row.phase, row.table, row.source);
    await saveProgress(tx, this.job, row, !this.#saved.has(k));
  }

  /** After a chunk committed: counts it, reports it; false when the run must stop. */
  committed(row: ProgressRow, label: string, total: number): boolean {
    const k = id(row.phase, row.table, row.source);
    if (row.phase === 'copy') {
      const before = this.#rows.get(k);
      this.run.copied += row.copied - (before?.copied ?? 0);
      this.run.skipped += row.skipped - (before?.skipped ?? 0);
      this.run.collisions += row.collisions - (before?.collisions ?? 0);
      this.run.renames += row.renames - (before?.renames ?? 0);
    }
    this.#rows.set(k, row);
    this.#saved.add(k);
    this.batches++;
    this.report(row, label, total);
    return !this.stopping;
  }

  /** Reports a row without a commit (a phase found done). */
  report(row: ProgressRow, label: string, total: number): void {
    this.onProgress?.({
      phase: row.phase,
      table: row.table,
      source: label,
      rowsDone: row.rowsDone,
      rowsTotal: Math.max(total, row.rowsDone),
      finished: row.done,
    });
  }
}
