import { composeId, InvalidArgumentError, type Layout } from '@snowkey/core';
import { type BatchOutcome, runBatches, type SourceRow } from './batch-loop.js';
import {
  BOOKKEEPING_TABLES,
  claimInputs,
  countRows,
  ensureBookkeeping,
  readProgress,
} from './bookkeeping.js';
import type { MergeStatements, SqlValue } from './database.js';
import { deferredColumns, writeDeferredKeys } from './deferred-keys.js';
import { MergeSchemaError } from './errors.js';
import { type RekeyOptions, type RekeyTable, setUpRekey } from './rekey-setup.js';
import { translateKeys } from './rekey-translate.js';
import { insertRows, rowsPerStatement } from './sql.js';

/**
 * What a rekey did: this run, and the whole rekey so far.
 *
 * @example
 * const r: RekeyRunResult = await runRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * r.totals.rekeyed; // 6413 rows got new ids
 */
export interface RekeyRunResult {
  readonly complete: boolean;
  readonly batches: number;
  /** Rows written by this run. */
  readonly rowsCopied: number;
  readonly totals: { readonly rowsCopied: number; readonly rekeyed: number };
  readonly elapsedMs: number;
}

/** The facts the first run fixes, so a resumed run assigns the very same ids. */
interface RekeyFacts {
  readonly startMs: number;
  readonly base: Record<string, number>;
}

/**
 * Re-keys a shard that uses AUTO_INCREMENT / serial keys: copies every table into `target` in
 * foreign-key order, giving each row of a table with a single integer primary key a snowkey id
 * (the layout, the server's node fields) and rewriting every foreign key that points at one.
 * `snowkey_rekey_map` in the target keeps every (table, old id, new id), for logs and external
 * references. Resumable after any kill, like a merge: batches commit with their progress row, and
 * ids are assigned deterministically (row order, and a first timestamp fixed by the first run,
 * far enough back that the whole range lies before it), so a resumed rekey writes exactly the
 * ids an uninterrupted one writes, and a generator started afterwards on the same node never
 * repeats one.
 *
 * @example
 * const result = await runRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * result.totals; // { rowsCopied: 6413, rekeyed: 5630 }
 * const v = await verifyRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * v.ok; // true
 */
export async function runRekey(options: RekeyOptions): Promise<RekeyRunResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? 1000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) {
    throw new InvalidArgumentError('batchSize', 'an integer in 1..50000', batchSize);
  }
  const setup = await setUpRekey(options);
  if (setup.problems.length > 0) throw new MergeSchemaError(setup.problems);
  const { target, source, layout } = options;
  await ensureBookkeeping(target, 'rekey');
  const counts = new Map<string, number>();
  for (const name of setup.order) counts.set(name, await countRows(source, name));
  const facts = await claimInputs<RekeyFacts>(target, 'rekey', setup.fingerprint, async () => {
    const full: string[] = [];
    for (const name of setup.order) {
      const n = await countRows(target, name);
      if (n > 0) full.push(`target table ${name} already holds ${n} rows: a rekey writes into empty tables`);
    }
    if (full.length > 0) throw new MergeSchemaError(full);
    const base: Record<string, number> = {};
    let total = 0;
    for (const name of setup.order) {
      if (!setup.tables.get(name)!.rekeyed) continue;
      base[name] = total;
      total += counts.get(name)!;
    }
    return { startMs: firstTimestamp(layout, total, (options.clock ?? Date.now)()), base };
  });
  const idAt = idSeries(layout, options.node, facts.startMs);
  const tasks = [];
  for (const phase of ['copy', 'link'] as const) {
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      if (phase === 'link' && info.deferred.length === 0) continue;
      tasks.push({
        phase,
        table: name,
        source: 0,
        sourceLabel: source.name,
        db: source,
        columns:
          phase === 'copy' ? info.columns : [...new Set([...info.key, ...deferredColumns(info.deferred)])],
        key: info.key,
        total: counts.get(name)!,
      });
    }
  }
  const loop = await runBatches({
    job: 'rekey',
    target,
    tasks,
    batchSize,
    interruptions: options,
    onProgress: options.onProgress,
    handle: (tx, task, rows, progress) => {
      const info = setup.tables.get(task.table)!;
      return task.phase === 'copy'
        ? copyBatch(tx, info, rows, (i) => idAt((facts.base[task.table] ?? 0) + progress.rowsDone + i))
        : linkBatch(tx, info, rows);
    },
  });
  const progress = (await readProgress(target, 'rekey')).filter((p) => p.phase === 'copy');
  return {
    complete: loop.complete,
    batches: loop.batches,
    rowsCopied: loop.copied,
    totals: {
      rowsCopied: progress.reduce((a, p) => a + p.copied, 0),
      rekeyed: progress.filter((p) => setup.tables.get(p.table)?.rekeyed).reduce((a, p) => a + p.copied, 0),
    },
    elapsedMs: performance.now() - started,
  };
}

/**
 * The first timestamp of a rekey of `total` rows started at `now`: far enough back that the last
 * id is dated before `now`, aligned to the layout's time unit.
 */
function firstTimestamp(layout: Layout, total: number, now: number): number {
  const perUnit = layout.maxSequence + 1;
  const units = Math.ceil(total / perUnit) + 1;
  const ticks = Math.floor((now - layout.epoch) / layout.timeUnitMs) - units;
  if (ticks < 0) {
    throw new InvalidArgumentError(
      'layout',
      `a layout whose epoch lies at least ${units} time units before now`,
      layout.name,
    );
  }
  return layout.epoch + ticks * layout.timeUnitMs;
}

/** The i-th id of the rekey: `perUnit` ids per time unit from `startMs`, in order. */
function idSeries(
  layout: Layout,
  node: Readonly<Record<string, number>>,
  startMs: number,
): (i: number) => bigint {
  const first = composeId({ timestamp: startMs, sequence: 0, ...node }, layout);
  const perUnit = layout.maxSequence + 1;
  return (i) =>
    first +
    (BigInt(Math.floor(i / perUnit)) << BigInt(layout.timestampShift)) +
    (BigInt(i % perUnit) << BigInt(layout.sequenceShift));
}

async function copyBatch(
  tx: MergeStatements,
  info: RekeyTable,
  rows: SourceRow[],
  idAt: (i: number) => bigint,
): Promise<BatchOutcome> {
  const t = info.table.name;
  const copies = rows.map((r) => ({ ...r }));
  if (info.rekeyed) {
    const pk = info.rekeyed;
    const map = copies.map((r, i) => {
      const oldId = r[pk] as SqlValue;
      r[pk] = idAt(i);
      return [t, oldId, r[pk] as bigint];
    });
    for (let i = 0; i < map.length; i += 1000) {
      const ins = insertRows(
        tx.dialect,
        BOOKKEEPING_TABLES.rekeyMap,
        ['table_name', 'old_id', 'new_id'],
        map.slice(i, i + 1000),
      );
      await tx.execute(ins.sql, ins.params);
    }
  }
  // After the mapping rows: a row may point at itself, or at an earlier row of its own batch.
  await translateKeys(tx, t, copies, info.refs);
  const deferred = new Set(deferredColumns(info.deferred));
  const values = copies.map((r) =>
    info.columns.map((c) => (deferred.has(c) ? null : ((r[c] ?? null) as SqlValue))),
  );
  const per = rowsPerStatement(info.columns.length);
  for (let i = 0; i < values.length; i += per) {
    const ins = insertRows(tx.dialect, t, info.columns, values.slice(i, i + per), info.overridingSystemValue);
    await tx.execute(ins.sql, ins.params);
  }
  return { copied: copies.length, skipped: 0, collisions: 0, renames: 0 };
}

async function linkBatch(tx: MergeStatements, info: RekeyTable, rows: SourceRow[]): Promise<BatchOutcome> {
  const t = info.table.name;
  const copies = rows.map((r) => ({ ...r }));
  const own = info.rekeyed ? [{ column: info.rekeyed, refTable: t }] : [];
  const keyRefs = info.refs.filter((r) => info.key.includes(r.column));
  await translateKeys(tx, t, copies, [...own, ...keyRefs, ...info.deferredRefs]);
  await writeDeferredKeys(tx, t, info.key, info.deferred, copies);
  return { copied: 0, skipped: 0, collisions: 0, renames: 0 };
}
