import type { BatchOutcome, SourceRow } from './batch-loop.js';
import { BOOKKEEPING_TABLES } from './bookkeeping.js';
import type { MergeStatements, SqlValue } from './database.js';
import { deferredColumns } from './deferred-keys.js';
import { MergeConflictError } from './errors.js';
import type { TablePlanInfo, UniqueRule } from './merge-setup.js';
import type { Redirects } from './redirects.js';
import { insertRows, keyIn, quote, rowsPerStatement } from './sql.js';
import { suffixedName } from './suffixed-name.js';
import { canonical, encodeKey } from './values.js';

/** The source a batch comes from. */
export interface BatchSource {
  readonly position: number;
  readonly label: string;
}

const T = BOOKKEEPING_TABLES;

/**
 * Copies one page of source rows into the target inside `tx`: leaves out (or fails on) rows whose
 * key another row holds, applies each unique constraint's policy in turn, points references to
 * left-out rows at the rows that stand in for them, writes deferred foreign keys as NULL, inserts
 * the rows and records every rename, skip and collision.
 */
export async function mergeBatch(
  tx: MergeStatements,
  info: TablePlanInfo,
  source: BatchSource,
  rows: SourceRow[],
  options: { keyCollisions: 'fail' | 'record'; redirects: Redirects },
): Promise<BatchOutcome> {
  if (rows.length === 0) return { copied: 0, skipped: 0, collisions: 0, renames: 0 };
  const d = tx.dialect;
  const t = info.table.name;
  const keyOf = (r: SourceRow) => info.key.map((c) => r[c] as SqlValue);
  // Records name a left-out row by its key in the source (what its children refer to it by).
  const sourceKey = new Map<SourceRow, string>();
  const copies = rows.map((r) => {
    const copy = { ...r };
    sourceKey.set(copy, encodeKey(keyOf(r)));
    return copy;
  });
  await options.redirects.apply(
    tx,
    source.position,
    t,
    info.foreignKeys.filter((fk) => !info.deferred.includes(fk)),
    copies,
  );
  const present = await tx.query<SourceRow>(...selectWhere(tx, t, info.key, info.key, copies.map(keyOf)));
  const taken = new Set(present.map((r) => encodeKey(keyOf(r))));
  const collided: SourceRow[] = [];
  let fresh: SourceRow[] = [];
  for (const r of copies) {
    if (!taken.has(encodeKey(keyOf(r)))) fresh.push(r);
    else if (options.keyCollisions === 'record') collided.push(r);
    else {
      throw new MergeConflictError({
        table: t,
        constraint: 'PRIMARY KEY',
        source: source.label,
        key: keyOf(r),
        value: keyOf(r),
        hint: 'shards keyed by AUTO_INCREMENT must be re-keyed first (snowkey rekey)',
      });
    }
  }

  const renames: SqlValue[][] = [];
  const skips: SqlValue[][] = [];
  for (const rule of info.rules) {
    fresh = await applyRule(tx, info, rule, source, fresh, renames, skips, sourceKey);
  }
  const deferred = new Set(deferredColumns(info.deferred));
  const cols = info.columns.get(source.position)!;
  const values = fresh.map((r) => cols.map((c) => (deferred.has(c) ? null : ((r[c] ?? null) as SqlValue))));
  const per = rowsPerStatement(cols.length);
  for (let i = 0; i < values.length; i += per) {
    const ins = insertRows(d, t, cols, values.slice(i, i + per), info.overridingSystemValue);
    await tx.execute(ins.sql, ins.params);
  }
  await insertRecords(
    tx,
    T.renames,
    ['table_name', 'row_key', 'column_name', 'source_label', 'old_value', 'new_value'],
    renames,
  );
  await insertRecords(
    tx,
    T.skips,
    ['table_name', 'source_position', 'row_key', 'target_key', 'constraint_name'],
    skips,
  );
  await insertRecords(
    tx,
    T.collisions,
    ['table_name', 'source_position', 'row_key'],
    collided.map((r) => [t, source.position, sourceKey.get(r)!]),
  );
  return {
    copied: fresh.length,
    skipped: skips.length,
    collisions: collided.length,
    renames: renames.length,
  };
}

/** `SELECT cols FROM table WHERE match IN keys`. */
function selectWhere(
  tx: MergeStatements,
  table: string,
  cols: readonly string[],
  match: readonly string[],
  keys: readonly (readonly SqlValue[])[],
): [string, SqlValue[]] {
  const where = keyIn(tx.dialect, match, keys);
  const q = (c: string) => quote(tx.dialect, c);
  return [`SELECT ${cols.map(q).join(', ')} FROM ${q(table)} WHERE ${where.sql}`, where.params];
}

async function applyRule(
  tx: MergeStatements,
  info: TablePlanInfo,
  rule: UniqueRule,
  source: BatchSource,
  rows: SourceRow[],
  renames: SqlValue[][],
  skips: SqlValue[][],
  sourceKey: ReadonlyMap<SourceRow, string>,
): Promise<SourceRow[]> {
  const t = info.table.name;
  const ucols = rule.unique.columns;
  const keyOf = (r: SourceRow) => info.key.map((c) => r[c] as SqlValue);
  const tupleOf = (r: SourceRow) => ucols.map((c) => r[c] as SqlValue);
  const complete = rows.filter((r) => tupleOf(r).every((v) => v !== null && v !== undefined));
  if (complete.length === 0) return rows;
  // Who holds each value now; a value equal only under the column's collation (MySQL's
  // case-insensitive ones) is not found by its exact text, so those rows are asked one by one.
  const found = await tx.query<SourceRow>(
    ...selectWhere(tx, t, [...info.key, ...ucols], ucols, complete.map(tupleOf)),
  );
  const holders = new Map(found.map((r) => [encodeKey(tupleOf(r)), encodeKey(keyOf(r))]));
  const asked = new Set(complete.map((r) => encodeKey(tupleOf(r))));
  const loose = [...holders.keys()].some((k) => !asked.has(k));
  const holderOf = async (tuple: SqlValue[]): Promise<string | undefined> => {
    const k = encodeKey(tuple);
    if (holders.has(k)) return holders.get(k);
    if (asked.has(k) && !loose) return undefined;
    const [r] = await tx.query<SourceRow>(...selectWhere(tx, t, info.key, ucols, [tuple]));
    return r ? encodeKey(keyOf(r)) : undefined;
  };
  const out: SourceRow[] = [];
  for (const r of rows) {
    const tuple = tupleOf(r);
    if (tuple.some((v) => v === null || v === undefined)) {
      out.push(r);
      continue;
    }
    const key = encodeKey(keyOf(r));
    const holder = await holderOf(tuple);
    if (holder === undefined || holder === key) {
      holders.set(encodeKey(tuple), key);
      out.push(r);
      continue;
    }
    if (rule.policy === 'fail') {
      throw new MergeConflictError({
        table: t,
        constraint: ucols.join('+'),
        source: source.label,
        key: keyOf(r),
        value: tuple,
        hint: `choose a policy for ${rule.id} (rename or skip), or change the value in the source`,
      });
    }
    if (rule.policy === 'skip') {
      skips.push([t, source.position, sourceKey.get(r)!, holder, rule.id]);
      continue;
    }
    const column = rule.renameColumn!;
    const original = String(r[column]);
    let attempt = 1;
    let candidate = suffixedName(original, source.label, attempt, rule.maxLength);
    for (;;) {
      const next = ucols.map((c) => (c === column ? candidate : (r[c] as SqlValue)));
      if ((await holderOf(next)) === undefined) break;
      candidate = suffixedName(original, source.label, ++attempt, rule.maxLength);
    }
    r[column] = candidate;
    holders.set(encodeKey(ucols.map((c) => r[c] as SqlValue)), key);
    renames.push([t, key, column, source.label, canonical(original), candidate]);
    out.push(r);
  }
  return out;
}

async function insertRecords(
  tx: MergeStatements,
  table: string,
  cols: string[],
  rows: SqlValue[][],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const ins = insertRows(tx.dialect, table, cols, rows.slice(i, i + 500));
    await tx.execute(ins.sql, ins.params);
  }
}
