import type { SqlDialect } from '@snowkey/core';
import type { SqlValue } from './database.js';

/** An identifier quoted for `dialect`. */
export function quote(dialect: SqlDialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replaceAll('`', '``')}\`` : `"${name.replaceAll('"', '""')}"`;
}

/** A SQL fragment and its parameters. */
export interface Fragment {
  readonly sql: string;
  readonly params: SqlValue[];
}

/**
 * `key > last` in key order for a key of one or more columns, spelled out as
 * `a > ? OR (a = ? AND b > ?)`, which every dialect plans as a range scan of the key's index.
 */
export function after(
  dialect: SqlDialect,
  key: readonly string[],
  last: readonly SqlValue[] | null,
): Fragment {
  if (last === null) return { sql: '1 = 1', params: [] };
  const ors: string[] = [];
  const params: SqlValue[] = [];
  for (let i = 0; i < key.length; i++) {
    const parts = key.slice(0, i).map((c) => `${quote(dialect, c)} = ?`);
    parts.push(`${quote(dialect, key[i]!)} > ?`);
    params.push(...last.slice(0, i), last[i]!);
    ors.push(parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`);
  }
  return { sql: `(${ors.join(' OR ')})`, params };
}

/**
 * `col IN (...)` for one column; for several, a row-value IN: `(a, b) IN ((?, ?), ...)`, and
 * `(a, b) IN (VALUES (?, ?), ...)` on SQLite (whose row-value IN takes a subquery, and which
 * refuses a chain of a thousand ORs as too deep).
 */
export function keyIn(
  dialect: SqlDialect,
  cols: readonly string[],
  keys: readonly (readonly SqlValue[])[],
): Fragment {
  if (keys.length === 0) return { sql: '1 = 0', params: [] };
  if (cols.length === 1) {
    return {
      sql: `${quote(dialect, cols[0]!)} IN (${keys.map(() => '?').join(', ')})`,
      params: keys.map((k) => k[0]!),
    };
  }
  const one = `(${cols.map(() => '?').join(', ')})`;
  const list = keys.map(() => one).join(', ');
  return {
    sql: `(${cols.map((c) => quote(dialect, c)).join(', ')}) IN (${dialect === 'sqlite' ? `VALUES ${list}` : list})`,
    params: keys.flat(),
  };
}

/** One page of `table` in key order after `last`. */
export function selectPage(
  dialect: SqlDialect,
  table: string,
  columns: readonly string[],
  key: readonly string[],
  last: readonly SqlValue[] | null,
  limit: number,
): Fragment {
  const where = after(dialect, key, last);
  const q = (c: string) => quote(dialect, c);
  return {
    sql: `SELECT ${columns.map(q).join(', ')} FROM ${q(table)} WHERE ${where.sql} ORDER BY ${key.map(q).join(', ')} LIMIT ${limit}`,
    params: where.params,
  };
}

/** Rows per INSERT statement: under every driver's limit on bound parameters. */
export function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.min(1000, Math.floor(30_000 / Math.max(1, columns))));
}

/** A multi-row INSERT of `rows` (one value per column, in order). */
export function insertRows(
  dialect: SqlDialect,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  overridingSystemValue = false,
): Fragment {
  const q = (c: string) => quote(dialect, c);
  const one = `(${columns.map(() => '?').join(', ')})`;
  const override = overridingSystemValue ? ' OVERRIDING SYSTEM VALUE' : '';
  return {
    sql: `INSERT INTO ${q(table)} (${columns.map(q).join(', ')})${override} VALUES ${rows.map(() => one).join(', ')}`,
    params: rows.flat(),
  };
}

/** `a` equals `b`, NULL equal to NULL. */
export function sameValue(dialect: SqlDialect, a: string, b: string): string {
  if (dialect === 'postgres') return `${a} IS NOT DISTINCT FROM ${b}`;
  if (dialect === 'mysql') return `${a} <=> ${b}`;
  return `${a} IS ${b}`;
}

/** String concatenation of SQL expressions. */
export function concat(dialect: SqlDialect, parts: readonly string[]): string {
  return dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : `(${parts.join(' || ')})`;
}

/** A string literal (standard SQL quoting; MySQL's backslash escapes doubled too). */
export function stringLiteral(dialect: SqlDialect, text: string): string {
  const body = text.replaceAll("'", "''");
  return `'${dialect === 'mysql' ? body.replaceAll('\\', '\\\\') : body}'`;
}

/** An expression as text: the form keys take in the merge's records. */
export function asText(dialect: SqlDialect, expr: string): string {
  if (dialect === 'postgres') return `(${expr})::text`;
  // An explicit collation: the records' columns and the connection may default to different ones.
  if (dialect === 'mysql') return `CAST(${expr} AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin`;
  return `CAST(${expr} AS TEXT)`;
}

/**
 * A row key as one text, the form the merge's records name rows by: the value itself for a key of
 * one column (`7`, `Aria`), a JSON array for a composite key (`[7, 2]`).
 */
export function keyText(dialect: SqlDialect, exprs: readonly string[]): string {
  if (exprs.length === 1) return asText(dialect, exprs[0]!);
  if (dialect === 'postgres') return `json_build_array(${exprs.join(', ')})::text`;
  if (dialect === 'mysql')
    return `CAST(JSON_ARRAY(${exprs.join(', ')}) AS CHAR CHARACTER SET utf8mb4) COLLATE utf8mb4_bin`;
  return `json_array(${exprs.join(', ')})`;
}

/** Character length of a text expression. */
export function charLength(dialect: SqlDialect, expr: string): string {
  return dialect === 'sqlite' ? `length(${expr})` : `CHAR_LENGTH(${expr})`;
}

/** The first `n` characters of a text expression. */
export function leftChars(dialect: SqlDialect, expr: string, n: number): string {
  return dialect === 'sqlite' ? `substr(${expr}, 1, ${n})` : `LEFT(${expr}, ${n})`;
}

/** `INSERT ... SELECT` that leaves out rows whose unique key is already there. */
export function insertIgnoring(dialect: SqlDialect, into: string, select: string): string {
  if (dialect === 'postgres') return `INSERT INTO ${into} ${select} ON CONFLICT DO NOTHING`;
  if (dialect === 'mysql') return `INSERT IGNORE INTO ${into} ${select}`;
  return `INSERT OR IGNORE INTO ${into} ${select}`;
}

/**
 * `UPDATE target SET cols FROM (select) AS x WHERE match` in each dialect's spelling; `set` and
 * `match` name the update's table as `t` and the select as `x`.
 */
export function updateFrom(
  dialect: SqlDialect,
  target: string,
  select: string,
  set: readonly [string, string][],
  match: string,
): string {
  if (dialect === 'mysql') {
    return `UPDATE ${target} t JOIN (${select}) x ON ${match} SET ${set.map(([c, v]) => `t.${c} = ${v}`).join(', ')}`;
  }
  const assignments = set.map(([c, v]) => `${c} = ${v}`).join(', ');
  if (dialect === 'postgres')
    return `UPDATE ${target} t SET ${assignments} FROM (${select}) x WHERE ${match}`;
  return `UPDATE ${target} AS t SET ${assignments} FROM (${select}) AS x WHERE ${match}`;
}

/**
 * An inner join that keeps the table before it as the outer loop: SQLite reads `CROSS JOIN` as that
 * hint, and would otherwise scan a staging table (which has no index but its sequence) once per row
 * of an indexed work table.
 */
export function innerJoin(dialect: SqlDialect): string {
  return dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
}

/**
 * Updates `target` from the rows of `select`, matched by key: `set` pairs a target column with a
 * column of the select, `match` a target key column with one. One statement on PostgreSQL and
 * MySQL; on SQLite the rows go through an indexed temporary table first, since its UPDATE ... FROM
 * may evaluate the select once per row of the target.
 */
export async function updateJoined(
  db: { readonly dialect: SqlDialect; execute(sql: string): Promise<number> },
  target: string,
  select: string,
  set: readonly (readonly [string, string])[],
  match: readonly (readonly [string, string])[],
): Promise<number> {
  const d = db.dialect;
  if (d !== 'sqlite') {
    return db.execute(
      updateFrom(
        d,
        target,
        select,
        set.map(([c, x]) => [c, `x.${x}`]),
        match.map(([t, x]) => `t.${t} = x.${x}`).join(' AND '),
      ),
    );
  }
  await db.execute('DROP TABLE IF EXISTS temp.snowkey_update');
  await db.execute(`CREATE TEMP TABLE snowkey_update AS ${select}`);
  await db.execute(
    `CREATE INDEX temp.snowkey_update_key ON snowkey_update (${match.map(([, x]) => x).join(', ')})`,
  );
  const on = match.map(([t, x]) => `u.${x} = ${target}.${t}`).join(' AND ');
  const keys = (cols: readonly string[]) => (cols.length === 1 ? cols[0]! : `(${cols.join(', ')})`);
  const n = await db.execute(
    `UPDATE ${target} SET ${set
      .map(([c, x]) => `${c} = (SELECT u.${x} FROM snowkey_update u WHERE ${on})`)
      .join(
        ', ',
      )} WHERE ${keys(match.map(([t]) => t))} IN (SELECT ${match.map(([, x]) => x).join(', ')} FROM snowkey_update)`,
  );
  await db.execute('DROP TABLE temp.snowkey_update');
  return n;
}
