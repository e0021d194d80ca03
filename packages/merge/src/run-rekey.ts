import { composeId, InvalidArgumentError, type Layout, type SqlDialect } from '@snowkey/core';
import {
  BOOKKEEPING_TABLES,
  claimInputs,
  countRows,
  ensureBookkeeping,
  hasTable,
  type ProgressRow,
  readProgress,
} from './bookkeeping.js';
import type { MergeSession, MergeSqlClient } from './database.js';
import { backColumns, deferredColumns } from './deferred-keys.js';
import { DanglingReferenceError, MergeSchemaError } from './errors.js';
import { checkIntegerKeys } from './key-checks.js';
import { WorkTables } from './merge-tables.js';
import { ProgressLedger } from './progress-ledger.js';
import {
  type KeyColumn,
  type RekeyOptions,
  type RekeySetup,
  type RekeyTable,
  setUpRekey,
} from './rekey-setup.js';
import { estimateRows } from './row-estimate.js';
import { quote, stringLiteral, updateJoined } from './sql.js';
import { loadStage } from './stage-load.js';
import { createStageTable, refreshStatistics } from './stage-table.js';

/** What a rekey did: this run, and the whole rekey so far. */
export interface RekeyRunResult {
  readonly complete: boolean;
  /** Chunks (transactions) this run committed. */
  readonly batches: number;
  /** Rows written by this run. */
  readonly rowsCopied: number;
  readonly totals: { readonly rowsCopied: number; readonly rekeyed: number };
  /** Per table: rows copied, and whether its key got new ids. */
  readonly tables: readonly { readonly table: string; readonly rows: number; readonly rekeyed: boolean }[];
  /** Milliseconds this run spent per phase. */
  readonly phases: Readonly<Record<'stage' | 'map' | 'copy' | 'link', number>>;
  readonly elapsedMs: number;
}

/** The facts the first run fixes, so a resumed run assigns the very same ids. */
interface RekeyFacts {
  /** The clock when the first run began: the new ids are dated before it. */
  readonly now: number;
}

/**
 * Copies a shard with AUTO_INCREMENT / serial keys into `target`, giving every row a snowkey id and
 * rewriting the foreign keys; `snowkey_rekey_map` keeps each (table, old id, new id).
 *
 * @example
 * const result = await runRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * result.totals; // { rowsCopied: 6413, rekeyed: 5630 }
 * const v = await verifyRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * v.ok; // true
 */
export async function runRekey(options: RekeyOptions): Promise<RekeyRunResult> {
  // Ids are assigned in key order from a first timestamp far enough back that the last is dated
  // before the first run began: a resumed rekey writes exactly the ids an uninterrupted one writes,
  // and a generator started afterwards on the node never repeats one.
  const started = performance.now();
  const batchSize = options.batchSize ?? 100_000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000_000) {
    throw new InvalidArgumentError('batchSize', 'an integer in 1..10000000', batchSize);
  }
  const setup = await setUpRekey(options);
  if (setup.problems.length > 0) throw new MergeSchemaError(setup.problems);
  const { target, source } = options;
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    await checkIntegerKeys(source, name, info.integerChecks, source.name);
  }
  const names = new WorkTables('snowkey_rekey_', false);
  const phases = { stage: 0, map: 0, copy: 0, link: 0 };
  return target.session(async (session) => {
    await ensureBookkeeping(session, 'rekey');
    const facts = await claimInputs<RekeyFacts>(session, 'rekey', setup.fingerprint, async () => {
      const full: string[] = [];
      for (const name of setup.order) {
        const n = await countRows(session, name);
        if (n > 0)
          full.push(`target table ${name} already holds ${n} rows: a rekey writes into empty tables`);
      }
      if (full.length > 0) throw new MergeSchemaError(full);
      return { now: (options.clock ?? Date.now)() };
    });
    const ledger = await ProgressLedger.open(session, 'rekey', options, options.onProgress);
    const label = source.name;
    const result = (complete: boolean) => finish(session, setup, ledger, complete, phases, started);
    const finished =
      ledger.all('copy').length > 0 &&
      ledger.all('copy').every((p) => p.done) &&
      ledger.all('link').every((p) => p.done) &&
      !(await anyStage(session, names, setup));
    if (finished) return result(true);

    // Stage: the shard read once, table by table.
    let t0 = performance.now();
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      const stage = names.stage(info.number);
      await createStageTable(session, { name: stage, columns: info.staged, extra: [] }, { temporary: false });
      let row = ledger.get('stage', name, 0);
      const total = row.done ? row.rowsDone : await estimateRows(source, name);
      if (row.done) {
        ledger.report(row, label, total);
        continue;
      }
      if (ledger.stopping) return result(false);
      const { stopped } = await loadStage(
        session,
        {
          stage,
          table: name,
          position: 0,
          source,
          columns: info.columns,
          key: info.key,
          keyColumns: info.sourceKeys,
        },
        batchSize,
        row.lastKey,
        async (tx, chunk) => {
          row = { ...row, lastKey: chunk.lastKey, rowsDone: row.rowsDone + chunk.rows, done: chunk.done };
          await ledger.save(tx, row, label);
        },
        () => ledger.committed(row, label, total),
      );
      if (stopped) return result(false);
    }
    phases.stage += performance.now() - t0;

    // Map: new ids in key order, `perUnit` per time unit, from a first timestamp the counts fix.
    const counts = new Map(setup.order.map((n) => [n, ledger.get('stage', n, 0).rowsDone]));
    let total = 0;
    const base = new Map<string, number>();
    for (const name of setup.order) {
      if (!setup.tables.get(name)!.rekeyed) continue;
      base.set(name, total);
      total += counts.get(name)!;
    }
    const idOf = idExpression(
      session.dialect,
      options.layout,
      options.node,
      firstTimestamp(options.layout, total, facts.now),
    );
    const bounds = new Map<string, [number, number]>();
    for (const name of setup.order) {
      const stage = quote(session.dialect, names.stage(setup.tables.get(name)!.number));
      const [b] = await session.query<{ lo: unknown; hi: unknown }>(
        `SELECT MIN(snowkey_seq) AS lo, MAX(snowkey_seq) AS hi FROM ${stage}`,
      );
      const lo = Number(b?.lo ?? 1);
      const hi = Number(b?.hi ?? 0);
      // The staged rows are numbered 1..n in key order (stage-load): the i-th gets the i-th new id.
      if (hi > 0 && (lo !== 1 || hi !== counts.get(name))) {
        throw new MergeSchemaError([
          `the staged rows of ${name} are numbered ${lo}..${hi} for ${counts.get(name)} rows, not 1..${counts.get(name)}: reset the rekey (snowkey rekey reset) and run it again`,
        ]);
      }
      bounds.set(name, [lo, hi]);
    }
    /** The new id of the staged row `a` of a re-keyed table: the next ids in staging order. */
    const newIds = new Map(
      [...base].map(([name, b]) => [name, (a: string) => idOf(`${b - 1} + ${a}.snowkey_seq`)] as const),
    );
    t0 = performance.now();
    const chunks = async (
      phase: 'map' | 'copy' | 'link',
      name: string,
      body: (
        tx: MergeSqlClient,
        from: number,
        to: number,
        before: ProgressRow,
      ) => Promise<{ rows: number; copied: number }>,
    ): Promise<boolean> => {
      const [lo, hi] = bounds.get(name)!;
      let row = ledger.get(phase, name, 0);
      const rows = counts.get(name)!;
      if (row.done) {
        ledger.report(row, label, rows);
        return true;
      }
      let last = row.lastKey === null ? lo - 1 : Number(row.lastKey);
      for (;;) {
        if (ledger.stopping) return false;
        const to = Math.min(last + batchSize, hi);
        const from = last;
        row = await session.transaction(async (tx) => {
          const did = await body(tx, from, to, row);
          const next: ProgressRow = {
            ...row,
            lastKey: String(to),
            rowsDone: row.rowsDone + did.rows,
            copied: row.copied + did.copied,
            done: to >= hi,
          };
          await ledger.save(tx, next, label);
          return next;
        });
        last = to;
        if (!ledger.committed(row, label, rows) && !row.done) return false;
        if (row.done) return true;
      }
    };
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      if (!info.rekeyed) continue;
      const stage = quote(session.dialect, names.stage(info.number));
      const ok = await chunks('map', name, async (tx, from, to) => {
        const rows = await tx.execute(
          `INSERT INTO ${BOOKKEEPING_TABLES.rekeyMap} (table_name, old_id, new_id) SELECT ${stringLiteral(tx.dialect, name)}, a.${quote(tx.dialect, info.rekeyed!)}, ${newIds.get(name)!('a')} FROM ${stage} a WHERE a.snowkey_seq > ${from} AND a.snowkey_seq <= ${to}`,
        );
        return { rows, copied: 0 };
      });
      if (!ok) return result(false);
    }
    await refreshStatistics(session, [BOOKKEEPING_TABLES.rekeyMap]);
    phases.map += performance.now() - t0;

    // Every reference resolves, before anything is written to the target's tables.
    if (ledger.all('copy').length === 0) {
      for (const name of setup.order) {
        const info = setup.tables.get(name)!;
        const stage = quote(session.dialect, names.stage(info.number));
        for (const ref of [...info.refs, ...info.deferredRefs]) {
          const c = quote(session.dialect, ref.column);
          const [dangling] = await session.query<{ v: unknown }>(
            `SELECT a.${c} AS v FROM ${stage} a LEFT JOIN ${BOOKKEEPING_TABLES.rekeyMap} m ON m.table_name = ? AND m.old_id = a.${c} WHERE a.${c} IS NOT NULL AND m.old_id IS NULL LIMIT 1`,
            [ref.refTable],
          );
          if (dangling) throw new DanglingReferenceError(name, ref.column, dangling.v, ref.refTable);
        }
      }
    }

    for (const phase of ['copy', 'link'] as const) {
      t0 = performance.now();
      for (const name of setup.order) {
        const info = setup.tables.get(name)!;
        if (phase === 'link' && info.deferred.length === 0) continue;
        const ok = await chunks(phase, name, async (tx, from, to) => {
          if (phase === 'copy') {
            const copied = await tx.execute(copySql(tx.dialect, info, names, from, to, newIds.get(name)));
            return { rows: copied, copied };
          }
          await linkRows(tx, info, names, from, to, newIds.get(name));
          const [c] = await tx.query<{ n: unknown }>(
            `SELECT COUNT(*) AS n FROM ${quote(tx.dialect, names.stage(info.number))} WHERE snowkey_seq > ${from} AND snowkey_seq <= ${to}`,
          );
          return { rows: Number(c?.n ?? 0), copied: 0 };
        });
        if (!ok) return result(false);
      }
      phases[phase] += performance.now() - t0;
    }
    for (const name of setup.order) await names.drop(session, names.stage(setup.tables.get(name)!.number));
    return result(true);
  });
}

/** The joins that translate a staged row's keys (alias `a`) through the map, and each column's value. */
function translated(
  dialect: SqlDialect,
  info: RekeyTable,
  refs: readonly KeyColumn[],
  newId: ((a: string) => string) | undefined,
) {
  const q = (c: string) => quote(dialect, c);
  const joins: string[] = [];
  const value = new Map<string, string>();
  const map = BOOKKEEPING_TABLES.rekeyMap;
  if (info.rekeyed) value.set(info.rekeyed, newId!('a'));
  refs.forEach((r, i) => {
    joins.push(
      `LEFT JOIN ${map} m${i} ON m${i}.table_name = ${stringLiteral(dialect, r.refTable)} AND m${i}.old_id = a.${q(r.column)}`,
    );
    value.set(r.column, `m${i}.new_id`);
  });
  return { joins: joins.join(' '), col: (c: string) => value.get(c) ?? `a.${q(c)}` };
}

function copySql(
  dialect: SqlDialect,
  info: RekeyTable,
  names: WorkTables,
  from: number,
  to: number,
  newId: ((a: string) => string) | undefined,
): string {
  const q = (c: string) => quote(dialect, c);
  const back = backColumns(info.deferred, info.key);
  const t = translated(
    dialect,
    info,
    [...info.refs, ...info.deferredRefs.filter((r) => back.has(r.column))],
    newId,
  );
  const deferred = new Set(deferredColumns(info.deferred));
  const k = info.key[0]!;
  const value = (c: string) =>
    back.has(c)
      ? `CASE WHEN a.${q(c)} <= a.${q(k)} THEN ${t.col(c)} END`
      : deferred.has(c)
        ? 'NULL'
        : t.col(c);
  const override = info.overridingSystemValue ? ' OVERRIDING SYSTEM VALUE' : '';
  return `INSERT INTO ${q(info.table.name)} (${info.columns.map(q).join(', ')})${override} SELECT ${info.columns
    .map(value)
    .join(
      ', ',
    )} FROM ${q(names.stage(info.number))} a ${t.joins} WHERE a.snowkey_seq > ${from} AND a.snowkey_seq <= ${to} ORDER BY a.snowkey_seq`;
}

function linkRows(
  db: MergeSqlClient,
  info: RekeyTable,
  names: WorkTables,
  from: number,
  to: number,
  newId: ((a: string) => string) | undefined,
): Promise<number> {
  const dialect = db.dialect;
  const q = (c: string) => quote(dialect, c);
  const keyRefs = info.refs.filter((r) => info.key.includes(r.column));
  const t = translated(dialect, info, [...keyRefs, ...info.deferredRefs], newId);
  const cols = deferredColumns(info.deferred);
  const back = backColumns(info.deferred, info.key);
  const pending = (c: string) => (back.has(c) ? `a.${q(c)} > a.${q(info.key[0]!)}` : `a.${q(c)} IS NOT NULL`);
  const select = `SELECT ${info.key.map((k, i) => `${t.col(k)} AS k${i}`).join(', ')}, ${cols
    .map((c, i) => `${t.col(c)} AS v${i}`)
    .join(
      ', ',
    )} FROM ${q(names.stage(info.number))} a ${t.joins} WHERE a.snowkey_seq > ${from} AND a.snowkey_seq <= ${to} AND (${cols
    .map(pending)
    .join(' OR ')})`;
  return updateJoined(
    db,
    q(info.table.name),
    select,
    cols.map((c, i) => [q(c), `v${i}`] as const),
    info.key.map((k, i) => [q(k), `k${i}`] as const),
  );
}

async function anyStage(db: MergeSqlClient, names: WorkTables, setup: RekeySetup): Promise<boolean> {
  for (const info of setup.tables.values()) if (await hasTable(db, names.stage(info.number))) return true;
  return false;
}

async function finish(
  db: MergeSession,
  setup: RekeySetup,
  ledger: ProgressLedger,
  complete: boolean,
  phases: Record<'stage' | 'map' | 'copy' | 'link', number>,
  started: number,
): Promise<RekeyRunResult> {
  const progress = (await readProgress(db, 'rekey')).filter((p) => p.phase === 'copy');
  const tables = setup.order.map((name) => ({
    table: name,
    rows: progress.find((p) => p.table === name)?.copied ?? 0,
    rekeyed: setup.tables.get(name)!.rekeyed !== null,
  }));
  return {
    complete,
    batches: ledger.batches,
    rowsCopied: ledger.run.copied,
    totals: {
      rowsCopied: tables.reduce((a, t) => a + t.rows, 0),
      rekeyed: tables.filter((t) => t.rekeyed).reduce((a, t) => a + t.rows, 0),
    },
    tables,
    phases,
    elapsedMs: performance.now() - started,
  };
}

/**
 * The first timestamp of a rekey of `total` rows begun at `now`: far enough back that the last id
 * is dated before `now`, aligned to the layout's time unit.
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

/** SQL for the i-th id of the rekey (`i` an integer expression): `perUnit` ids per time unit. */
function idExpression(
  dialect: SqlDialect,
  layout: Layout,
  node: Readonly<Record<string, number>>,
  startMs: number,
): (i: string) => string {
  const first = composeId({ timestamp: startMs, sequence: 0, ...node }, layout);
  const perUnit = layout.maxSequence + 1;
  const tick = 2n ** BigInt(layout.timestampShift);
  const step = 2n ** BigInt(layout.sequenceShift);
  const div = dialect === 'mysql' ? 'DIV' : '/';
  return (i) => `(${first} + ((${i}) ${div} ${perUnit}) * ${tick} + ((${i}) % ${perUnit}) * ${step})`;
}
