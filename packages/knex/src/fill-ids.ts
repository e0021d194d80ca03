import { type IdGenerator, InvalidArgumentError, takeIds } from '@snowkey/core';

/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

const MAX_BIGINT = (1n << 63n) - 1n;
const CALLER_ID = 'a bigint in 0..2^63-1, or undefined/null to have one assigned';

/**
 * Copies `input` (one row or an array of rows) with every missing snowflake column filled from
 * `generator`. An id the caller set is kept; it must be a bigint, so a Number that may already have
 * lost precision, or a string, is refused rather than guessed at. The input is never mutated.
 *
 * @example
 * fillIds(gen, ['id'], [{ name: 'a' }, { id: 7n, name: 'b' }]);
 * // [{ name: 'a', id: 175928847299117063n }, { id: 7n, name: 'b' }]
 */
export function fillIds(generator: IdGenerator, columns: readonly string[], input: unknown): Row[] {
  const rows = toRowArray(input);
  const missing: Array<[row: Row, column: string]> = [];
  const copies = rows.map((row, i) => {
    const copy: Row = { ...row };
    for (const column of columns) {
      const value = copy[column];
      if (value === undefined || value === null) missing.push([copy, column]);
      else if (typeof value !== 'bigint' || value < 0n || value > MAX_BIGINT) {
        throw new InvalidArgumentError(`rows[${i}].${column}`, CALLER_ID, value);
      }
    }
    return copy;
  });
  const ids = takeIds(generator, missing.length);
  missing.forEach(([row, column], k) => {
    row[column] = ids[k];
  });
  return copies;
}

function toRowArray(input: unknown): Row[] {
  const rows = Array.isArray(input) ? input : [input];
  rows.forEach((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new InvalidArgumentError(
        Array.isArray(input) ? `rows[${i}]` : 'rows',
        'a row object or an array of row objects',
        row,
      );
    }
  });
  return rows as Row[];
}
