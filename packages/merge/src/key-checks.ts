import type { SqlDialect } from '@snowkey/core';
import type { MergeSqlClient } from './database.js';
import { InvalidKeyError } from './errors.js';
import type { ColumnInfo } from './schema.js';
import { quote } from './sql.js';

const MIN = '-9223372036854775808';
const MAX = '9223372036854775807';

/**
 * The SQL test that a value of column `c` (as the source declares it) is not an integer in
 * -2^63..2^63-1; null when the declared type guarantees it (so nothing is read).
 */
function badValue(dialect: SqlDialect, c: ColumnInfo): string | null {
  const q = quote(dialect, c.name);
  const type = (c.sqlType ?? c.type).toLowerCase();
  if (dialect === 'sqlite') return `typeof(${q}) <> 'integer'`;
  if (dialect === 'postgres') {
    if (c.integer) return null;
    if (/^(numeric|decimal|real|double)/.test(type)) {
      return `(${q}::numeric <> trunc(${q}::numeric) OR ${q}::numeric NOT BETWEEN ${MIN} AND ${MAX})`;
    }
    return `(${q}::text !~ '^-?[0-9]{1,19}$' OR (CASE WHEN ${q}::text ~ '^-?[0-9]{1,19}$' THEN ${q}::text::numeric END) NOT BETWEEN ${MIN} AND ${MAX})`;
  }
  if (c.integer) return type.includes('unsigned') && c.bigint ? `${q} > ${MAX}` : null;
  if (/^(decimal|numeric|float|double|real)/.test(type)) {
    return `(${q} <> FLOOR(${q}) OR ${q} NOT BETWEEN ${MIN} AND ${MAX})`;
  }
  return `(CAST(${q} AS CHAR) NOT REGEXP '^-?[0-9]{1,19}$' OR CAST(${q} AS DECIMAL(30, 0)) NOT BETWEEN ${MIN} AND ${MAX})`;
}

/**
 * Refuses a key that snowkey ids cannot stand for: reads, on the source, the first value of
 * `columns` of `table` that is not an integer in -2^63..2^63-1 ({@link InvalidKeyError} naming the
 * table, the column and the value). Columns whose declared type guarantees integers are not read.
 */
export async function checkIntegerKeys(
  db: MergeSqlClient,
  table: string,
  columns: readonly ColumnInfo[],
  source: string,
): Promise<void> {
  const tests = columns
    .map((c) => ({ c, bad: badValue(db.dialect, c) }))
    .filter((t): t is { c: ColumnInfo; bad: string } => t.bad !== null);
  if (tests.length === 0) return;
  const q = (c: string) => quote(db.dialect, c);
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT ${tests.map((t) => q(t.c.name)).join(', ')} FROM ${q(table)} WHERE ${tests
      .map((t) => `(${q(t.c.name)} IS NOT NULL AND ${t.bad})`)
      .join(' OR ')} LIMIT 1`,
  );
  if (!row) return;
  for (const t of tests) {
    const v = row[t.c.name];
    if (v === null || v === undefined) continue;
    if (typeof v === 'bigint' && v >= BigInt(MIN) && v <= BigInt(MAX)) continue;
    // better-sqlite3 reads an INTEGER as a bigint here, so a number is a REAL.
    if (typeof v === 'number' && Number.isSafeInteger(v) && db.dialect !== 'sqlite') continue;
    if (
      typeof v === 'string' &&
      /^-?\d{1,19}$/.test(v) &&
      BigInt(v) >= BigInt(MIN) &&
      BigInt(v) <= BigInt(MAX)
    )
      continue;
    throw new InvalidKeyError(table, t.c.name, v, source);
  }
  const first = tests[0]!.c.name;
  throw new InvalidKeyError(table, first, row[first], source);
}
