import { InvalidArgumentError } from '@snowkey/core';
import {
  type BatchOutcome,
  type Interruptions,
  type ProgressEvent,
  runBatches,
  type SourceRow,
} from './batch-loop.js';
import {
  BOOKKEEPING_TABLES,
  claimInputs,
  countRows,
  ensureBookkeeping,
  readProgress,
} from './bookkeeping.js';
import type { MergeStatements } from './database.js';
import { deferredColumns, writeDeferredKeys } from './deferred-keys.js';
import { MergeSchemaError } from './errors.js';
import { type BatchSource, mergeBatch } from './merge-batch.js';
import { checkInputs, type MergeInputs, setUpMerge, type TablePlanInfo } from './merge-setup.js';
import { Redirects } from './redirects.js';
import { encodeKey } from './values.js';

/**
 * Options of {@link runMerge}: the merge's inputs, and how to run it.
 *
 * @example
 * const options: MergeRunOptions = { sources, target, onConflict: { 'players.name': 'rename' }, batchSize: 1000 };
 */
export interface MergeRunOptions extends MergeInputs, Interruptions {
  /** Source rows per batch (one transaction each). Default 1000. */
  readonly batchSize?: number;
  readonly onProgress?: (p: ProgressEvent) => void;
}

/**
 * What the merge did: this run, and the whole merge over every run on this target.
 *
 * @example
 * const run: MergeRunResult = await runMerge(options);
 * run.totals.renames; // 57
 */
export interface MergeRunResult {
  /** False when `stopAfterBatches` stopped it. */
  readonly complete: boolean;
  /** Batches this run committed. */
  readonly batches: number;
  /** What this run did. */
  readonly run: MergeCounts;
  /**
   * The merge so far, read from its progress rows (committed with each batch), so a resumed or
   * repeated merge reports what one uninterrupted run reports.
   */
  readonly totals: MergeCounts;
  readonly elapsedMs: number;
}

/**
 * Rows copied, left out under a skip policy, key collisions recorded, values renamed.
 *
 * @example
 * const c: MergeCounts = { copied: 12770, skipped: 0, collisions: 0, renames: 57 };
 */
export interface MergeCounts {
  readonly copied: number;
  readonly skipped: number;
  readonly collisions: number;
  readonly renames: number;
}

/**
 * Merges the sources into the target (合服), for any schema: tables in foreign-key order, each
 * from every source in turn, in keyset batches; each batch is one transaction on the target with
 * its progress row. Killed at any point and run again with the same inputs, it goes on after the
 * last committed batch and ends exactly where an uninterrupted run ends; run again after it
 * finished, it copies nothing. A run with other inputs than the first one is refused
 * ({@link MergeInputsChangedError}) before it writes anything.
 *
 * Unique values already held in the target follow their constraint's policy (rename, skip or
 * fail), and every rename and skip is recorded. Foreign keys that a first pass cannot write (a
 * nullable self-reference, a nullable link in a cycle) are filled in by a second pass.
 *
 * @example
 * const result = await runMerge({
 *   sources: [{ label: 'S1', db: s1 }, { label: 'S2', db: s2 }],
 *   target,
 *   onConflict: { 'players.name': 'rename', 'guilds.name': 'rename' },
 * });
 * result.totals; // { copied: 12770, skipped: 0, collisions: 0, renames: 57 }
 */
export async function runMerge(options: MergeRunOptions): Promise<MergeRunResult> {
  const started = performance.now();
  checkInputs(options);
  const batchSize = options.batchSize ?? 1000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) {
    throw new InvalidArgumentError('batchSize', 'an integer in 1..50000', batchSize);
  }
  const setup = await setUpMerge(options);
  if (setup.problems.length > 0) throw new MergeSchemaError(setup.problems);
  const { target } = options;
  await ensureBookkeeping(target, 'merge');
  await claimInputs(target, 'merge', setup.fingerprint, async () => ({
    rowsBefore: Object.fromEntries(
      await Promise.all(setup.order.map(async (t) => [t, await countRows(target, t)] as const)),
    ),
  }));
  const keys = new Map([...setup.tables].map(([name, info]) => [name, info.key]));
  const redirects = new Redirects(keys);
  const sources = options.sources.map((s, position) => ({ ...s, position }));
  const tasks = [];
  for (const phase of ['copy', 'link'] as const) {
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      if (phase === 'link' && info.deferred.length === 0) continue;
      for (const s of sources) {
        const cols = info.columns.get(s.position);
        if (!cols) continue;
        tasks.push({
          phase,
          table: name,
          source: s.position,
          sourceLabel: s.label,
          db: s.db,
          columns: phase === 'copy' ? cols : [...new Set([...info.key, ...deferredColumns(info.deferred)])],
          key: info.key,
          total: await countRows(s.db, name),
        });
      }
    }
  }
  const keyCollisions = options.keyCollisions ?? 'fail';
  const loop = await runBatches({
    job: 'merge',
    target,
    tasks,
    batchSize,
    interruptions: options,
    onProgress: options.onProgress,
    handle: (tx, task, rows) => {
      const info = setup.tables.get(task.table)!;
      const source = { position: task.source, label: task.sourceLabel };
      return task.phase === 'copy'
        ? mergeBatch(tx, info, source, rows, { keyCollisions, redirects })
        : linkBatch(tx, info, source, rows, redirects);
    },
  });
  return {
    complete: loop.complete,
    batches: loop.batches,
    run: { copied: loop.copied, skipped: loop.skipped, collisions: loop.collisions, renames: loop.renames },
    totals: await readMergeTotals(target),
    elapsedMs: performance.now() - started,
  };
}

/**
 * The merge so far on `target`, from its progress rows.
 *
 * @example
 * await readMergeTotals(target); // { copied: 12770, skipped: 0, collisions: 0, renames: 57 }
 */
export async function readMergeTotals(target: MergeStatements): Promise<MergeCounts> {
  const rows = (await readProgress(target, 'merge')).filter((p) => p.phase === 'copy');
  const sum = (f: (p: (typeof rows)[number]) => number) => rows.reduce((a, p) => a + f(p), 0);
  return {
    copied: sum((p) => p.copied),
    skipped: sum((p) => p.skipped),
    collisions: sum((p) => p.collisions),
    renames: sum((p) => p.renames),
  };
}

/** The second pass: fills in the deferred foreign keys of rows the first pass copied. */
async function linkBatch(
  tx: MergeStatements,
  info: TablePlanInfo,
  source: BatchSource,
  rows: SourceRow[],
  redirects: Redirects,
): Promise<BatchOutcome> {
  const none = { copied: 0, skipped: 0, collisions: 0, renames: 0 };
  if (rows.length === 0) return none;
  const t = info.table.name;
  const keyOf = (r: SourceRow) => encodeKey(info.key.map((c) => r[c]));
  const keys = rows.map(keyOf);
  const marks = keys.map(() => '?').join(', ');
  const leftOut = new Set<string>();
  for (const table of [BOOKKEEPING_TABLES.collisions, BOOKKEEPING_TABLES.skips]) {
    const found = await tx.query<{ row_key: string }>(
      `SELECT row_key FROM ${table} WHERE table_name = ? AND source_position = ? AND row_key IN (${marks})`,
      [t, source.position, ...keys],
    );
    for (const f of found) leftOut.add(f.row_key);
  }
  const kept = rows.filter((r) => !leftOut.has(keyOf(r))).map((r) => ({ ...r }));
  // The row is found by its key in the target, which a skip may have rewritten too.
  const read = new Set(Object.keys(rows[0]!));
  const fks = info.foreignKeys.filter((fk) => fk.columns.every((c) => read.has(c)));
  await redirects.apply(tx, source.position, t, fks, kept);
  await writeDeferredKeys(tx, t, info.key, info.deferred, kept);
  return none;
}
