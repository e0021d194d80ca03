import type { SqlDialect } from '@snowkey/core';
import type { SqlValue } from './database.js';

/**
 * An identifier quoted for `dialect`.
 *
 * @example
 * quote('mysql', 'order'); // '`order`'
 */
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

/**
 * One page of `table` in key order after `last`.
 *
 * @example
 * selectPage('postgres', 'players', ['id', 'name'], ['id'], [7n], 500);
 * // { sql: 'SELECT "id", "name" FROM "players" WHERE ("id" > ?) ORDER BY "id" LIMIT 500', params: [7n] }
 */
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

/**
 * A multi-row INSERT of `rows` (one value per column, in order).
 *
 * @example
 * insertRows('sqlite', 'players', ['id', 'name'], [[1n, 'Aria']]);
 * // { sql: 'INSERT INTO "players" ("id", "name") VALUES (?, ?)', params: [1n, 'Aria'] }
 */
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
