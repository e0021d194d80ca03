import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { callerIdAction, copyRow, takeIds } from '@snowkey/core/adapter';

/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

/**
 * `input` (one row or an array of rows) with every missing snowflake column filled from
 * `generator`, as a new array. What the caller put in a snowflake column follows core's one rule
 * (`callerIdAction`): `undefined` or `null` gets a generated id, a bigint in 1..2^63-1 is kept, and
 * anything else (a Number that may already have lost precision, a string, 0, a negative) is refused
 * before any id is taken.
 *
 * By default the rows are copies and the input is never mutated. With `inPlace` the ids are
 * written into the caller's own row objects (no copy: the cheapest fill), and the array holds
 * those objects. Either all of them get their ids or, if one cannot take its id (a frozen row,
 * or one object twice in `input`), none does and the error names that row.
 *
 * @example
 * fillIds(gen, ['id'], [{ name: 'a' }, { id: 7n, name: 'b' }]);
 * // [{ name: 'a', id: 175928847299117063n }, { id: 7n, name: 'b' }]
 */
export function fillIds(
  generator: IdGenerator,
  columns: readonly string[],
  input: unknown,
  inPlace = false,
): Row[] {
  const rows = toRowArray(input);
  const width = columns.length;
  const targets: Row[] = new Array(rows.length);
  // Where ids go, as row * width + column: plain numbers, no per-row allocation.
  const slots: number[] = [];
  // Names the value refused, built only then: one closure per call, not one per row.
  let at = 0;
  let atColumn = '';
  const where = () => `rows[${at}].${atColumn}`;
  for (let i = 0; i < rows.length; i++) {
    // copyRow keeps the row's own property order and shape and has room for the ids added.
    const target: Row = inPlace ? rows[i]! : copyRow(rows[i]!);
    for (let c = 0; c < width; c++) {
      const column = columns[c]!;
      at = i;
      atColumn = column;
      if (callerIdAction(target[column], where) === 'generate') {
        slots.push(i * width + c);
      }
    }
    targets[i] = target;
  }
  const ids = takeIds(generator, slots.length);
  if (inPlace) writeIdsInPlace(targets, columns, slots, ids);
  else {
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      targets[(slot / width) | 0]![columns[slot % width]!] = ids[k];
    }
  }
  return targets;
}

/**
 * Writes `ids` into the caller's rows at `slots`, all or none: a row that cannot take its id (not
 * extensible, a read-only column) or that appears twice (its slot already written in this call)
 * undoes the ids written so far and is named in the error.
 */
function writeIdsInPlace(rows: Row[], columns: readonly string[], slots: number[], ids: bigint[]): void {
  const width = columns.length;
  // What each slot held before: absent, undefined or null (the only values that get an id).
  const before: (null | undefined | typeof ABSENT)[] = new Array(slots.length);
  let failed: 'twice' | 'unwritable' | undefined;
  let k = 0;
  for (; k < slots.length; k++) {
    const slot = slots[k]!;
    const row = rows[(slot / width) | 0]!;
    const column = columns[slot % width]!;
    const value = row[column];
    if (value !== undefined && value !== null) {
      failed = 'twice';
      break;
    }
    before[k] = value === null ? null : Object.hasOwn(row, column) ? undefined : ABSENT;
    try {
      row[column] = ids[k];
    } catch {
      failed = 'unwritable';
      break;
    }
    if (row[column] !== ids[k]) {
      failed = 'unwritable';
      break;
    }
  }
  if (failed === undefined) return;
  for (let u = k - 1; u >= 0; u--) {
    const slot = slots[u]!;
    const row = rows[(slot / width) | 0]!;
    const column = columns[slot % width]!;
    if (before[u] === ABSENT) delete row[column];
    else row[column] = before[u];
  }
  const slot = slots[k]!;
  const i = (slot / width) | 0;
  throw new InvalidArgumentError(
    `rows[${i}]`,
    failed === 'twice'
      ? 'each row object once in rows (with fillInPlace its id is written into it)'
      : `a row object its "${columns[slot % width]}" can be written into (with fillInPlace the id is written into your row: pass a copy, or leave fillInPlace off)`,
    rows[i],
  );
}

const ABSENT = Symbol('absent');

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
