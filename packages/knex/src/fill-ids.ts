import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { generateOrKeep, type RowCopier, takeIds } from '@snowkey/core/adapter';
import {
  ABSENT,
  firstSlots,
  NO_SLOTS,
  NULL,
  type Row,
  type Slots,
  UNDEFINED,
  writeIds,
  writeIdsInPlace,
} from './place-ids.js';

export type { Row } from './place-ids.js';

/**
 * `input` (one row or an array of rows) with every missing snowflake column filled from
 * `generator`, as a new array. What the caller put in a snowflake column follows core's one rule
 * (`generateOrKeep`): `undefined` or `null` gets a generated id, a bigint in 1..2^63-1 is kept, and
 * anything else (a Number that may already have lost precision, a string, 0, a negative) is refused
 * before any id is taken.
 *
 * Given a `RowCopier` (core's, made for `columns`) the rows are copies and the input is never
 * mutated. With `'in-place'` the ids are written into the caller's own row objects (no copy), and
 * the array holds those objects. Either all of them get their ids or, if one cannot take its id
 * (a frozen row, a read-only column, a setter that does not store it, or one object twice in
 * `input`), none does and the error names that row.
 *
 * @example
 * const rows = [{ name: 'a' }, { id: 7n, name: 'b' }];
 * fillIds(gen, ['id'], rows, 'in-place'); // rows[0].id: 175928847299117063n, rows[1].id: 7n
 */
export function fillIds(
  generator: IdGenerator,
  columns: readonly string[],
  input: unknown,
  into: RowCopier | 'in-place',
): Row[] {
  const inPlace = into === 'in-place';
  const rows: unknown[] = Array.isArray(input) ? input : [input];
  const width = columns.length;
  const targets: Row[] = new Array(rows.length);
  // The usual call first: no row has any of the id columns. Those rows are checked (and copied)
  // in a loop of their own that reads no id column, and slot k takes id k. At the first other row
  // the general loop below goes on from it.
  const start = inPlace
    ? rowsWithoutIds(input, rows, columns, targets)
    : copiesWithoutIds(input, rows, into, targets);
  // Where the ids go, as row * width + column, in order. Left out while every slot so far takes
  // an id (the usual call: slot k is then k), so no array is grown for it.
  let slots: number[] | undefined;
  let n = start * width;
  // With inPlace, what each slot held before, to undo a failed call: one byte a slot, no boxing
  // (0, ABSENT, for the rows before start).
  const before = inPlace ? new Uint8Array(rows.length * width) : NO_SLOTS;
  // Names the value refused, built only then: at most one closure per call, made at the first
  // id column read, not one per row.
  let atRow = 0;
  let atColumn = '';
  let where: (() => string) | undefined;
  for (let i = start; i < rows.length; i++) {
    const row = rows[i];
    // Checked here, not in a pass of its own: nothing is taken or written before the loop ends.
    if (!isRow(row)) throw notARow(input, i, row);
    // The copier keeps the row's own property order and has the id columns in place already,
    // and says which of them the row did not have: those take an id without being read.
    const target: Row = inPlace ? (row as Row) : into.copy(row);
    const missing = inPlace ? 0 : into.missing;
    for (let c = 0; c < width; c++) {
      if ((missing & (1 << c)) === 0) {
        const column = columns[c]!;
        atRow = i;
        atColumn = column;
        const value = target[column];
        where ??= () => `rows[${atRow}].${atColumn}`;
        if (generateOrKeep(value, where) !== 'generate') {
          slots ??= firstSlots(n);
          continue;
        }
        if (inPlace)
          before[n] =
            value === null ? NULL : column in target && Object.hasOwn(target, column) ? UNDEFINED : ABSENT;
      }
      slots?.push(i * width + c);
      n++;
    }
    targets[i] = target;
  }
  const ids = takeIds(generator, n);
  const at: Slots = { rows: targets, columns, slots };
  if (inPlace) writeIdsInPlace(at, ids, before);
  // A copy is a plain object with every id column as its own writable data property: no write
  // into it throws, so every id is written.
  else writeIds(at, ids);
  return targets;
}

/**
 * How many rows, from the first, are row objects with none of `columns` (not even inherited),
 * put in `targets` as they are: each takes an id in every column and has nothing to restore but
 * their absence. Throws for the first value that is not a row object.
 */
function rowsWithoutIds(input: unknown, rows: unknown[], columns: readonly string[], targets: Row[]): number {
  const width = columns.length;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!isRow(row)) throw notARow(input, i, row);
    for (let c = 0; c < width; c++) if (columns[c]! in row) return i;
    targets[i] = row as Row;
  }
  return rows.length;
}

/**
 * How many rows, from the first, `copier` copied into `targets` as rows of a shape it learned
 * without any of its id columns (`copyLacking`): their ids are written without reading them. A
 * row it does not copy is left for the general loop, not read. Throws for the first value that is
 * not a row object.
 */
function copiesWithoutIds(input: unknown, rows: unknown[], copier: RowCopier, targets: Row[]): number {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!isRow(row)) throw notARow(input, i, row);
    const copy = copier.copyLacking(row);
    if (copy === undefined) return i;
    targets[i] = copy;
  }
  return rows.length;
}

/** Whether `value` is a row object: an object, not null and not an array. */
function isRow(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function notARow(input: unknown, i: number, row: unknown): InvalidArgumentError {
  return new InvalidArgumentError(
    Array.isArray(input) ? `rows[${i}]` : 'rows',
    'a row object or an array of row objects',
    row,
  );
}
