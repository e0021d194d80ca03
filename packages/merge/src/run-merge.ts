import { InvalidArgumentError } from '@snowkey/core';
import {
  BOOKKEEPING_TABLES,
  claimInputs,
  countRows,
  ensureBookkeeping,
  forgetProgress,
  hasTable,
  type ProgressRow,
  readProgress,
  saveFacts,
} from './bookkeeping.js';
import type { MergeSession, MergeSqlClient } from './database.js';
import { MergeConflictError, MergeInputsChangedError, MergeSchemaError } from './errors.js';
import { checkIntegerKeys } from './key-checks.js';
import { analyzeTable, type ConstraintFindings } from './merge-analysis.js';
import { copyChunk, linkChunk } from './merge-apply.js';
import { checkInputs, type MergeInputs, type MergeSetup, setUpMerge } from './merge-setup.js';
import { stageSources } from './merge-stage.js';
import { type TableDecisions, WorkTables } from './merge-tables.js';
import { type Interruptions, type ProgressEvent, ProgressLedger } from './progress-ledger.js';
import { refreshStatistics } from './stage-table.js';

/** Options of {@link runMerge}: the merge's inputs, and how to run it. */
export interface MergeRunOptions extends MergeInputs, Interruptions {
  /** Rows per chunk (one transaction each, in every phase). Default 100000. */
  readonly batchSize?: number;
  readonly onProgress?: (p: ProgressEvent) => void;
}

/** Rows copied, left out under a skip policy, key collisions recorded, values renamed. */
export interface MergeCounts {
  readonly copied: number;
  readonly skipped: number;
  readonly collisions: number;
  readonly renames: number;
}

/** One table of one source as the merge took it: rows read, and what became of them. */
export interface MergeTableCounts extends MergeCounts {
  readonly table: string;
  readonly source: string;
  /** Source rows read. */
  readonly rows: number;
}

/** What the merge did: this run, and the whole merge over every run on this target. */
export interface MergeRunResult {
  /** False when `stopAfterBatches` stopped it. */
  readonly complete: boolean;
  /** Chunks (transactions) this run committed. */
  readonly batches: number;
  /** What this run did. */
  readonly run: MergeCounts;
  /**
   * The merge so far, read from its progress rows (committed with each chunk), so a resumed or
   * repeated merge reports what one uninterrupted run reports.
   */
  readonly totals: MergeCounts;
  /** Per table and source, the merge so far. */
  readonly tables: readonly MergeTableCounts[];
  /** What each unique constraint (and each table's key) met, and its policy. */
  readonly conflicts: readonly ConstraintFindings[];
  /** Milliseconds this run spent per phase. */
  readonly phases: Readonly<Record<'stage' | 'analyze' | 'copy' | 'link', number>>;
  readonly elapsedMs: number;
}

interface MergeFacts {
  readonly rowsBefore: Record<string, number>;
  readonly policies: string;
}

/**
 * Merges the sources into the target (合服), for any schema. A conflict under `fail` is a
 * {@link MergeConflictError} before the target's tables are written; killed and run again with the
 * same inputs, it ends exactly where an uninterrupted run ends.
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
  // Three steps, each committing in chunks with its progress row, so a rerun resumes: stage (each
  // source table read once, in bulk, into snowkey_merge_stage_* tables of the target), analyze
  // (collisions and unique conflicts found by set operations there and decided by policy), then
  // copy and link (INSERT ... SELECT per chunk, then the foreign keys that could not be written
  // with their row: nullable self-references, links closing a cycle).
  const started = performance.now();
  checkInputs(options);
  const batchSize = options.batchSize ?? 100_000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000_000) {
    throw new InvalidArgumentError('batchSize', 'an integer in 1..10000000', batchSize);
  }
  const setup = await setUpMerge(options);
  if (setup.problems.length > 0) throw new MergeSchemaError(setup.problems);
  const { target } = options;
  const labels = options.sources.map((s) => s.label);
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    for (const [p, s] of options.sources.entries()) {
      const checks = info.integerChecks.get(p);
      if (checks && checks.length > 0) await checkIntegerKeys(s.db, name, checks, s.label);
    }
  }
  const phases = { stage: 0, analyze: 0, copy: 0, link: 0 };
  const names = new WorkTables('snowkey_merge_', false);
  return target.session(async (session) => {
    await ensureBookkeeping(session, 'merge');
    const facts = await claimInputs<MergeFacts>(session, 'merge', setup.fingerprint, async () => {
      // One connection runs one statement at a time: the counts go one after another.
      const rowsBefore: Record<string, number> = {};
      for (const t of setup.order) rowsBefore[t] = await countRows(session, t);
      return { rowsBefore, policies: setup.policies };
    });
    const ledger = await ProgressLedger.open(session, 'merge', options, options.onProgress);
    const written = ledger.all('copy').length > 0 || ledger.all('link').length > 0;
    if (facts.policies !== setup.policies) {
      if (written) throw new MergeInputsChangedError('merge', facts.policies, setup.policies);
      await forgetAnalysis(session, setup, names, ledger);
      await saveFacts(session, 'merge', { ...facts, policies: setup.policies });
    }
    const result = (
      complete: boolean,
      decided?: ReadonlyMap<string, TableDecisions>,
      findings: ConstraintFindings[] = [],
    ) => finish(session, setup, labels, ledger, complete, findings, phases, started, decided);
    const finished =
      ledger.all('copy').length > 0 &&
      ledger.all('copy').every((p) => p.done) &&
      ledger.all('link').every((p) => p.done) &&
      !(await hasStage(session, names, setup));
    if (finished) return result(true);

    let t0 = performance.now();
    const staged = await stageSources(session, options, setup, names, batchSize, ledger);
    phases.stage += performance.now() - t0;
    if (!staged) return result(false);

    t0 = performance.now();
    const decided = new Map<string, TableDecisions>();
    const findings: ConstraintFindings[] = [];
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      const row = ledger.get('analyze', name, -1);
      if (row.done && row.lastKey) {
        const saved = JSON.parse(row.lastKey) as {
          decisions: TableDecisions;
          findings: ConstraintFindings[];
        };
        decided.set(name, saved.decisions);
        findings.push(...saved.findings);
        continue;
      }
      const analysis = await session.transaction((tx) =>
        analyzeTable(tx, setup, info, names, decided, {
          labels,
          keyCollisions: options.keyCollisions ?? 'fail',
          records: true,
        }),
      );
      decided.set(name, analysis.decisions);
      findings.push(...analysis.findings);
      const failing = analysis.findings.some((f) => f.policy === 'fail' && f.count > 0);
      if (!failing) {
        const done: ProgressRow = {
          ...row,
          lastKey: JSON.stringify(analysis, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
          rowsDone: Object.values(analysis.decisions.bounds).reduce((a, b) => a + b[2], 0),
          done: true,
        };
        await session.transaction((tx) => ledger.save(tx, done, '-'));
        ledger.committed(done, '-', done.rowsDone);
      }
    }
    const records = [BOOKKEEPING_TABLES.renames, BOOKKEEPING_TABLES.skips, BOOKKEEPING_TABLES.collisions];
    await refreshStatistics(session, records);
    phases.analyze += performance.now() - t0;
    const refused = findings.filter((f) => f.policy === 'fail' && f.count > 0);
    if (refused.length > 0) {
      await forgetAnalysis(session, setup, names, ledger);
      throw new MergeConflictError(
        Object.fromEntries(refused.map((f) => [f.id, f.count])),
        refused.flatMap((f) => f.examples),
      );
    }
    if (ledger.stopping) return result(false, decided, findings);

    for (const phase of ['copy', 'link'] as const) {
      t0 = performance.now();
      for (const name of setup.order) {
        const info = setup.tables.get(name)!;
        if (phase === 'link' && info.deferred.length === 0) continue;
        const mine = decided.get(name)!;
        for (const [p, s] of options.sources.entries()) {
          const bounds = mine.bounds[p];
          if (!info.columns.has(p)) continue;
          let row = ledger.get(phase, name, p);
          const total = bounds?.[2] ?? 0;
          if (row.done) {
            ledger.report(row, s.label, total);
            continue;
          }
          let last = row.lastKey === null ? (bounds ? bounds[0] - 1 : 0) : Number(row.lastKey);
          const end = bounds ? bounds[1] : 0;
          for (;;) {
            if (ledger.stopping) return result(false, decided, findings);
            const to = Math.min(last + batchSize, end);
            row = await session.transaction(async (tx) => {
              const next: ProgressRow =
                phase === 'copy'
                  ? await (async () => {
                      const c = await copyChunk(tx, setup, info, names, decided, p, last, to);
                      return {
                        ...row,
                        lastKey: String(to),
                        rowsDone: row.rowsDone + c.rows,
                        copied: row.copied + c.copied,
                        skipped: row.skipped + c.skipped,
                        collisions: row.collisions + c.collisions,
                        renames: row.renames + c.renames,
                        done: to >= end,
                      };
                    })()
                  : await (async () => {
                      await linkChunk(tx, setup, info, names, decided, p, last, to);
                      const [c] = await tx.query<{ n: unknown }>(
                        `SELECT COUNT(*) AS n FROM ${names.stage(info.number)} WHERE snowkey_src = ${p} AND snowkey_seq > ${last} AND snowkey_seq <= ${to}`,
                      );
                      return {
                        ...row,
                        lastKey: String(to),
                        rowsDone: row.rowsDone + Number(c?.n ?? 0),
                        done: to >= end,
                      };
                    })();
              await ledger.save(tx, next, s.label);
              return next;
            });
            last = to;
            if (!ledger.committed(row, s.label, total) && !row.done) return result(false, decided, findings);
            if (row.done) break;
          }
        }
      }
      phases[phase] += performance.now() - t0;
    }
    await dropWork(session, setup, names);
    return result(true, decided, findings);
  });
}

async function hasStage(db: MergeSqlClient, names: WorkTables, setup: MergeSetup): Promise<boolean> {
  for (const info of setup.tables.values()) if (await hasTable(db, names.stage(info.number))) return true;
  return false;
}

/** Drops the analysis's decisions (a policy changed, or a conflict refused the merge). */
async function forgetAnalysis(
  db: MergeSession,
  setup: MergeSetup,
  names: WorkTables,
  ledger: ProgressLedger,
): Promise<void> {
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    await names.drop(db, names.out(info.number));
    await names.drop(db, names.keys(info.number));
    for (const r of info.rules) {
      await names.drop(db, names.held(info.number, r.number));
      await names.drop(db, names.renamed(info.number, r.number));
    }
  }
  for (const t of [BOOKKEEPING_TABLES.renames, BOOKKEEPING_TABLES.skips, BOOKKEEPING_TABLES.collisions]) {
    await db.execute(`DELETE FROM ${t}`);
  }
  await forgetProgress(db, 'merge', ['analyze']);
  ledger.forget(['analyze']);
}

/** Drops the staging and decision tables of a finished merge; its records stay. */
async function dropWork(db: MergeSession, setup: MergeSetup, names: WorkTables): Promise<void> {
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    await names.drop(db, names.out(info.number));
    for (const r of info.rules) await names.drop(db, names.renamed(info.number, r.number));
    await names.drop(db, names.stage(info.number));
  }
}

async function finish(
  db: MergeSqlClient,
  setup: MergeSetup,
  labels: readonly string[],
  ledger: ProgressLedger,
  complete: boolean,
  findings: ConstraintFindings[],
  phases: Record<'stage' | 'analyze' | 'copy' | 'link', number>,
  started: number,
  decided?: ReadonlyMap<string, TableDecisions>,
): Promise<MergeRunResult> {
  const progress = await readProgress(db, 'merge');
  const copy = progress.filter((p) => p.phase === 'copy');
  const sum = (rows: ProgressRow[], f: (p: ProgressRow) => number) => rows.reduce((a, p) => a + f(p), 0);
  const counts = (rows: ProgressRow[]): MergeCounts => ({
    copied: sum(rows, (p) => p.copied),
    skipped: sum(rows, (p) => p.skipped),
    collisions: sum(rows, (p) => p.collisions),
    renames: sum(rows, (p) => p.renames),
  });
  const tables: MergeTableCounts[] = [];
  for (const name of setup.order) {
    for (const [p, label] of labels.entries()) {
      const staged = progress.find((r) => r.phase === 'stage' && r.table === name && r.source === p);
      if (!staged) continue;
      const c = copy.filter((r) => r.table === name && r.source === p);
      tables.push({ table: name, source: label, rows: staged.rowsDone, ...counts(c) });
    }
  }
  const saved =
    findings.length > 0
      ? findings
      : progress
          .filter((p) => p.phase === 'analyze' && p.lastKey)
          .flatMap((p) => (JSON.parse(p.lastKey!) as { findings: ConstraintFindings[] }).findings);
  void decided;
  return {
    complete,
    batches: ledger.batches,
    run: { ...ledger.run },
    totals: counts(copy),
    tables,
    conflicts: saved,
    phases,
    elapsedMs: performance.now() - started,
  };
}

/**
 * The merge so far on `target`, from its progress rows.
 *
 * @example
 * await readMergeTotals(target); // { copied: 12770, skipped: 0, collisions: 0, renames: 57 }
 */
export async function readMergeTotals(target: MergeSqlClient): Promise<MergeCounts> {
  const rows = (await readProgress(target, 'merge')).filter((p) => p.phase === 'copy');
  const sum = (f: (p: (typeof rows)[number]) => number) => rows.reduce((a, p) => a + f(p), 0);
  return {
    copied: sum((p) => p.copied),
    skipped: sum((p) => p.skipped),
    collisions: sum((p) => p.collisions),
    renames: sum((p) => p.renames),
  };
}
