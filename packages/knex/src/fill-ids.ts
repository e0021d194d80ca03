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
  const width = columns.length;
  const copies: Row[] = new Array(rows.length);
  // Where ids go, as row * width + column: plain numbers, no per-row allocation.
  const slots: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    // Object.assign keeps the row's own property order and shape; a spread copy gave rows
    // differing hidden classes once ids were added, which slowed Knex's own walk over them.
    const copy: Row = Object.assign({}, rows[i]);
    for (let c = 0; c < width; c++) {
      const column = columns[c]!;
      if (callerIdAction(copy[column], () => `rows[${i}].${column}`) === 'generate') {
        slots.push(i * width + c);
      }
    }
    copies[i] = copy;
  }
  const ids = takeIds(generator, slots.length);
  for (let k = 0; k < slots.length; k++) {
    const slot = slots[k]!;
    copies[(slot / width) | 0]![columns[slot % width]!] = ids[k];
  }
  return copies;
}

function toRowArray(input: unknown): Row[] {
  const rows: unknown[] = Array.isArray(input) ? input : [input];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new InvalidArgumentError(
        Array.isArray(input) ? `rows[${i}]` : 'rows',
        'a row object or an array of row objects',
        row,
      );
    }
  }
  return rows as Row[];
}
