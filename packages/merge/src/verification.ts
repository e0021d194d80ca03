import type { SqlDialect } from '@snowkey/core';
import type { MergeDatabase, MergeSession, MergeSqlClient } from './database.js';
import type { WorkTables } from './merge-tables.js';
import type { ColumnInfo, ForeignKeyInfo } from './schema.js';
import { quote, sameValue } from './sql.js';
import { loadStage } from './stage-load.js';
import { createStageTable } from './stage-table.js';

/** One table as a verification found it. */
export interface TableVerification {
  readonly table: string;
  /** Rows per source, by label. */
  readonly sourceRows: Readonly<Record<string, number>>;
  readonly targetRows: number;
  /** Rows the target must hold: those it held before, plus every source row not left out. */
  readonly expectedRows: number;
  /** Source rows with no target row under their key. */
  readonly missing: number;
  /** Source rows whose target row holds other values (renames and redirects accounted for). */
  readonly different: number;
  /** Source rows left out and recorded: skipped under a policy, or a key collision. */
  readonly leftOut: number;
  /**
   * Copied rows whose reference points at a row left out by a key collision: their foreign key
   * resolves, to the other row that holds the key (another server's player), which no
   * constraint catches.
   */
  readonly misattached: number;
}

/**
 * What {@link verifyMerge} or {@link verifyRekey} found: `ok` only when every source row is in the
 * target exactly once with its values, nothing else is, and every foreign key resolves.
 */
export interface Verification {
  readonly ok: boolean;
  /** One line per failed check. */
  readonly problems: readonly string[];
  readonly tables: readonly TableVerification[];
  /** Foreign-key values of the target with no parent row, per `table.columns` (by SQL). */
  readonly dangling: Readonly<Record<string, number>>;
}

/** Counts, by SQL on `db`, the rows of each foreign key whose parent row does not exist. */
export async function countDangling(
  db: MergeSqlClient,
  fks: readonly ForeignKeyInfo[],
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const q = (c: string) => quote(db.dialect, c);
  for (const fk of fks) {
    const on = fk.columns.map((c, i) => `p.${q(fk.refColumns[i]!)} = c.${q(c)}`).join(' AND ');
    const set = fk.columns.map((c) => `c.${q(c)} IS NOT NULL`).join(' AND ');
    const [row] = await db.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM ${q(fk.table)} c LEFT JOIN ${q(fk.refTable)} p ON ${on} WHERE ${set} AND p.${q(fk.refColumns[0]!)} IS NULL`,
    );
    out[`${fk.table}.${fk.columns.join('+')}`] = Number(row?.n ?? 0);
  }
  return out;
}

/**
 * Reads every row of `sources`' table into a temporary staging table of the verification's session
 * (by the same bulk routes as a merge), for the comparison to run as SQL in the target.
 */
export async function stageForVerification(
  session: MergeSession,
  names: WorkTables,
  number: number,
  table: string,
  staged: readonly ColumnInfo[],
  key: readonly string[],
  sources: readonly {
    readonly position: number;
    readonly db: MergeDatabase;
    readonly columns: readonly string[];
    readonly keyColumns: readonly ColumnInfo[];
  }[],
): Promise<string> {
  const stage = names.stage(number);
  await createStageTable(
    session,
    { name: stage, columns: staged, extra: [] },
    { temporary: true, replace: true },
  );
  for (const s of sources) {
    await loadStage(
      session,
      { stage, table, position: s.position, source: s.db, columns: s.columns, key, keyColumns: s.keyColumns },
      1_000_000,
      null,
      async () => {},
      () => true,
    );
  }
  return stage;
}

/** `CAST(text AS the column's type)`: a key recorded as text, back to its type. */
export function castAs(dialect: SqlDialect, expr: string, c: ColumnInfo): string {
  if (c.text) return expr;
  if (c.integer) {
    return dialect === 'postgres'
      ? `(${expr})::bigint`
      : dialect === 'mysql'
        ? `CAST(${expr} AS SIGNED)`
        : `CAST(${expr} AS INTEGER)`;
  }
  return dialect === 'postgres' ? `(${expr})::${c.sqlType ?? c.type}` : expr;
}

/**
 * The target row `t` holds `expected` in column `c`: NULL equal to NULL, text compared byte by byte
 * (a MySQL collation that ignores case would hide a changed letter).
 */
export function holds(dialect: SqlDialect, c: ColumnInfo, actual: string, expected: string): string {
  if (dialect === 'mysql' && c.text) return sameValue(dialect, `BINARY ${actual}`, `BINARY ${expected}`);
  return sameValue(dialect, actual, expected);
}

/** `q` for `dialect`. */
export const quoter = (dialect: SqlDialect) => (c: string) => quote(dialect, c);
