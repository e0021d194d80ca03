import type { SourceRow } from './batch-loop.js';
import type { MergeStatements, SqlValue } from './database.js';
import type { ForeignKeyInfo } from './schema.js';
import { keyIn, quote, selectPage } from './sql.js';
import { canonical, encodeKey } from './values.js';

/**
 * One table as a verification found it.
 *
 * @example
 * const t: TableVerification = { table: 'players', sourceRows: { S1: 1000, S2: 1000 }, targetRows: 2000, expectedRows: 2000, missing: 0, different: 0, leftOut: 0, misattached: 0 };
 */
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
 *
 * @example
 * const v: Verification = await verifyMerge(inputs);
 * if (!v.ok) console.error(v.problems.join('\n'));
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
  db: MergeStatements,
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

/** Reads every row of `table` in key order, a page at a time. */
export async function* pages(
  db: MergeStatements,
  table: string,
  columns: readonly string[],
  key: readonly string[],
  size = 1000,
): AsyncGenerator<SourceRow[]> {
  let last: SqlValue[] | null = null;
  for (;;) {
    const page = selectPage(db.dialect, table, columns, key, last, size);
    const rows = await db.query<SourceRow>(page.sql, page.params);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const end = rows[rows.length - 1]!;
    last = key.map((c) => end[c] as SqlValue);
  }
}

/**
 * Looks each expected row up in the target by its key and compares `columns` in canonical form.
 * Resolves to the rows missing and the rows that differ (with a few examples).
 */
export async function compareWithTarget(
  target: MergeStatements,
  table: string,
  key: readonly string[],
  columns: readonly string[],
  expected: readonly SourceRow[],
  examples: string[],
): Promise<{ missing: number; different: number }> {
  if (expected.length === 0) return { missing: 0, different: 0 };
  const keyOf = (r: SourceRow) => key.map((c) => r[c] as SqlValue);
  const where = keyIn(target.dialect, key, expected.map(keyOf));
  const q = (c: string) => quote(target.dialect, c);
  const found = await target.query<SourceRow>(
    `SELECT ${columns.map(q).join(', ')} FROM ${q(table)} WHERE ${where.sql}`,
    where.params,
  );
  const byKey = new Map(found.map((r) => [encodeKey(keyOf(r)), r]));
  let missing = 0;
  let different = 0;
  for (const row of expected) {
    const there = byKey.get(encodeKey(keyOf(row)));
    if (!there) {
      missing++;
      if (examples.length < 5) examples.push(`${table} [${keyOf(row).map(String).join(', ')}] is missing`);
      continue;
    }
    const off = columns.filter((c) => canonical(there[c]) !== canonical(row[c]));
    if (off.length > 0) {
      different++;
      if (examples.length < 5) {
        examples.push(
          `${table} [${keyOf(row).map(String).join(', ')}]: ${off.map((c) => `${c} is ${JSON.stringify(canonical(there[c]))}, expected ${JSON.stringify(canonical(row[c]))}`).join('; ')}`,
        );
      }
    }
  }
  return { missing, different };
}
