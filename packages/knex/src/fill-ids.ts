import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { callerIdAction, takeIds } from '@snowkey/core/adapter';

/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

/**
 * Copies `input` (one row or an array of rows) with every missing snowflake column filled from
 * `generator`. What the caller put in a snowflake column follows core's one rule
 * (`callerIdAction`): `undefined` or `null` gets a generated id, a bigint in 1..2^63-1 is kept, and
 * anything else (a Number that may already have lost precision, a string, 0, a negative) is refused
 * before any id is taken. The input is never mutated.
 *
 * @example
 * fillIds(gen, ['id'], [{ name: 'a' }, { id: 7n, name: 'b' }]);
 * // [{ name: 'a', id: 175928847299117063n }, { id: 7n, name: 'b' }]
 */
export function fillIds(generator: IdGenerator, columns: readonly string[], input: unknown): Row[] {
  const rows = toRowArray(input);
  const missing: Array<[row: Row, column: string]> = [];
  const copies = rows.map((row, i) => {
    // Object.assign keeps the row's own property order and shape; a spread copy gave rows
    // differing hidden classes once ids were added, which slowed Knex's own walk over them.
    const copy: Row = Object.assign({}, row);
    for (const column of columns) {
      if (callerIdAction(copy[column], `rows[${i}].${column}`) === 'generate') missing.push([copy, column]);
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
