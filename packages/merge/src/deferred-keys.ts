import type { ForeignKeyInfo } from './schema.js';

/**
 * The columns of `deferred` foreign keys, each once: written NULL by the first pass over a table,
 * and written by the second.
 */
export function deferredColumns(deferred: readonly ForeignKeyInfo[]): string[] {
  return [...new Set(deferred.flatMap((fk) => fk.columns))];
}
