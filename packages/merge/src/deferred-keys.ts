import type { ForeignKeyInfo } from './schema.js';

/**
 * The columns of `deferred` foreign keys, each once: written NULL by the first pass over a table,
 * and written by the second.
 */
export function deferredColumns(deferred: readonly ForeignKeyInfo[]): string[] {
  return [...new Set(deferred.flatMap((fk) => fk.columns))];
}

/**
 * Whether `fk` is a self-reference of a table keyed by its one column: a value not above the row's
 * own key points at a row written before it (key order), so the copy writes it with its row, and
 * only the references forward are left to the second pass.
 */
export function pointsBack(fk: ForeignKeyInfo, key: readonly string[]): boolean {
  return (
    fk.refTable === fk.table && fk.columns.length === 1 && key.length === 1 && fk.refColumns[0] === key[0]
  );
}

/** The deferred columns a copy writes with their row when they point back (see {@link pointsBack}). */
export function backColumns(deferred: readonly ForeignKeyInfo[], key: readonly string[]): Set<string> {
  const back = new Set(deferred.filter((fk) => pointsBack(fk, key)).map((fk) => fk.columns[0]!));
  // A column in another deferred key too waits for the second pass.
  for (const fk of deferred) if (!pointsBack(fk, key)) for (const c of fk.columns) back.delete(c);
  return back;
}
