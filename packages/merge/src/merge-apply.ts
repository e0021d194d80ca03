import type { MergeSqlClient } from './database.js';
import { backColumns, deferredColumns } from './deferred-keys.js';
import type { MergeSetup, TablePlanInfo } from './merge-setup.js';
import { finalRow, type TableDecisions, type WorkTables } from './merge-tables.js';
import { quote, updateJoined } from './sql.js';

/** What one chunk of the copy did. */
export interface ChunkCounts {
  readonly rows: number;
  readonly copied: number;
  readonly skipped: number;
  readonly collisions: number;
  readonly renames: number;
}

/**
 * Writes the staged rows of source `p` with staging numbers in `(from, to]` into the target table,
 * by one INSERT ... SELECT: rows left out stay out, references to skipped rows point at the rows
 * standing in for them, renamed values replace the originals, and foreign keys of the second pass
 * are written NULL. Rows go in staging order (key order within a source).
 */
export async function copyChunk(
  tx: MergeSqlClient,
  setup: MergeSetup,
  info: TablePlanInfo,
  names: WorkTables,
  decided: ReadonlyMap<string, TableDecisions>,
  p: number,
  from: number,
  to: number,
): Promise<ChunkCounts> {
  const d = tx.dialect;
  const q = (c: string) => quote(d, c);
  const n = info.number;
  const mine = decided.get(info.table.name)!;
  const final = finalRow(d, names, info, setup.tables, decided, { renames: true, self: true });
  const deferred = new Set(deferredColumns(info.deferred));
  const back = backColumns(info.deferred, info.key);
  const k = info.key[0]!;
  const value = (c: string) =>
    back.has(c)
      ? `CASE WHEN a.${q(c)} <= a.${q(k)} THEN ${final.col(c)} END`
      : deferred.has(c)
        ? 'NULL'
        : final.col(c);
  const cols = info.columns.get(p)!;
  const range = `a.snowkey_src = ${p} AND a.snowkey_seq > ${from} AND a.snowkey_seq <= ${to}`;
  const out = mine.out > 0 ? `LEFT JOIN ${q(names.out(n))} o ON o.snowkey_seq = a.snowkey_seq` : '';
  const override = info.overridingSystemValue ? ' OVERRIDING SYSTEM VALUE' : '';
  const copied = await tx.execute(
    `INSERT INTO ${q(info.table.name)} (${cols.map(q).join(', ')})${override} SELECT ${cols
      .map(value)
      .join(
        ', ',
      )} FROM ${q(names.stage(n))} a ${final.joins} ${out} WHERE ${range}${mine.out > 0 ? ' AND o.snowkey_seq IS NULL' : ''} ORDER BY a.snowkey_seq`,
  );
  let skipped = 0;
  let collisions = 0;
  if (mine.out > 0) {
    const [c] = await tx.query<{ s: unknown; c: unknown }>(
      `SELECT SUM(CASE WHEN snowkey_fate = 1 THEN 1 ELSE 0 END) AS s, SUM(CASE WHEN snowkey_fate = 2 THEN 1 ELSE 0 END) AS c FROM ${q(names.out(n))} WHERE snowkey_src = ${p} AND snowkey_seq > ${from} AND snowkey_seq <= ${to}`,
    );
    skipped = Number(c?.s ?? 0);
    collisions = Number(c?.c ?? 0);
  }
  let renames = 0;
  for (const rule of info.rules) {
    if ((mine.renamed[rule.number] ?? 0) === 0) continue;
    const [c] = await tx.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM ${q(names.renamed(n, rule.number))} WHERE snowkey_src = ${p} AND snowkey_seq > ${from} AND snowkey_seq <= ${to}`,
    );
    renames += Number(c?.n ?? 0);
  }
  return { rows: copied + skipped + collisions, copied, skipped, collisions, renames };
}

/**
 * The second pass over the staged rows of source `p` in `(from, to]`: writes the foreign keys the
 * copy wrote as NULL (nullable self-references, links that close a cycle), redirected like the rest.
 */
export async function linkChunk(
  tx: MergeSqlClient,
  setup: MergeSetup,
  info: TablePlanInfo,
  names: WorkTables,
  decided: ReadonlyMap<string, TableDecisions>,
  p: number,
  from: number,
  to: number,
): Promise<number> {
  const d = tx.dialect;
  const q = (c: string) => quote(d, c);
  const n = info.number;
  const mine = decided.get(info.table.name)!;
  const final = finalRow(d, names, info, setup.tables, decided, { renames: true, self: true });
  const cols = deferredColumns(info.deferred).filter((c) => info.columns.get(p)!.includes(c));
  if (cols.length === 0) return 0;
  // A reference back was written with its row by the copy: only those forward are left.
  const back = backColumns(info.deferred, info.key);
  const pending = (c: string) => (back.has(c) ? `a.${q(c)} > a.${q(info.key[0]!)}` : `a.${q(c)} IS NOT NULL`);
  const out = mine.out > 0 ? `LEFT JOIN ${q(names.out(n))} o ON o.snowkey_seq = a.snowkey_seq` : '';
  const select = `SELECT ${info.key.map((k, i) => `${final.col(k)} AS k${i}`).join(', ')}, ${cols
    .map((c, i) => `${final.col(c)} AS v${i}`)
    .join(
      ', ',
    )} FROM ${q(names.stage(n))} a ${final.joins} ${out} WHERE a.snowkey_src = ${p} AND a.snowkey_seq > ${from} AND a.snowkey_seq <= ${to}${
    mine.out > 0 ? ' AND o.snowkey_seq IS NULL' : ''
  } AND (${cols.map(pending).join(' OR ')})`;
  return updateJoined(
    tx,
    q(info.table.name),
    select,
    cols.map((c, i) => [q(c), `v${i}`] as const),
    info.key.map((k, i) => [q(k), `k${i}`] as const),
  );
}
