import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { callerIdAction, type RowCopier, takeIds } from '@snowkey/core/adapter';

/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

/**
 * `input` (one row or an array of rows) with every missing snowflake column filled from
 * `generator`, as a new array. What the caller put in a snowflake column follows core's one rule
 * (`callerIdAction`): `undefined` or `null` gets a generated id, a bigint in 1..2^63-1 is kept, and
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
  let at = 0;
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
        at = i;
        atColumn = column;
        const value = target[column];
        where ??= () => `rows[${at}].${atColumn}`;
        if (callerIdAction(value, where) !== 'generate') {
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
  if (inPlace) writeIdsInPlace(targets, columns, slots, ids, before);
  // A copy is a plain object with every id column as its own writable data property: no write
  // into it throws, so every id is written.
  else writeIds(targets, columns, slots, ids);
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
 * How many rows, from the first, `copier` copied into `targets` without any of its id columns
 * (its `missing` bits all set): their ids are written without reading them. Throws for the first
 * value that is not a row object.
 */
function copiesWithoutIds(input: unknown, rows: unknown[], copier: RowCopier, targets: Row[]): number {
  const width = copier.room.length;
  const all = width > 31 ? -1 : 2 ** width - 1;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!isRow(row)) throw notARow(input, i, row);
    const copy = copier.copy(row);
    if (copier.missing !== all) return i;
    targets[i] = copy;
  }
  return rows.length;
}

/** What a slot held before its id: absent, `undefined` or `null` (the only values that get one). */
const ABSENT = 0;
const UNDEFINED = 1;
const NULL = 2;
const NO_SLOTS = new Uint8Array(0);

/** The slots 0..n-1: every slot before the first row that kept its own id took one. */
function firstSlots(n: number): number[] {
  const slots: number[] = [];
  for (let k = 0; k < n; k++) slots.push(k);
  return slots;
}

/**
 * Writes `ids` into the caller's rows at `slots` (slot k is k when there is none), all or none,
 * then reads each back: a row that cannot take its id (not extensible, a read-only column, a
 * setter that does not store) or that appears twice (a later slot of the same object overwrote
 * it) undoes every id written, restoring `before`, and is named in the error.
 */
function writeIdsInPlace(
  rows: Row[],
  columns: readonly string[],
  slots: number[] | undefined,
  ids: bigint[],
  before: Uint8Array,
): void {
  const written = writeIds(rows, columns, slots, ids);
  const failed = written < ids.length ? written : firstNotTaken(rows, columns, slots, ids);
  if (failed < 0) return;
  undoAndRefuse(rows, columns, slots ?? firstSlots(ids.length), ids, before, written, failed);
}

/**
 * Writes `ids` into `rows` at `slots` (slot k is k when there is none), and says how many were
 * written before a row refused its id by throwing (ids.length: all). One id column and every row
 * taking an id (the usual call) goes by a name fixed before the loop.
 */
function writeIds(
  rows: Row[],
  columns: readonly string[],
  slots: number[] | undefined,
  ids: bigint[],
): number {
  return slots === undefined && columns.length === 1
    ? writeColumn(rows, columns[0]!, ids)
    : writeSlots(rows, columns, slots, ids);
}

/**
 * Row k takes ids[k] in `column`. A function of its own, called once per insert with a loop over
 * every row, so V8 optimizes it within the first few calls: inside the larger `fillIds` the same
 * loop would run in V8's baseline code, through its generic property-access stubs, for many more
 * calls.
 */
function writeColumn(rows: Row[], column: string, ids: bigint[]): number {
  let k = 0;
  try {
    for (; k < ids.length; k++) rows[k]![column] = ids[k];
  } catch {}
  return k;
}

function writeSlots(
  rows: Row[],
  columns: readonly string[],
  slots: number[] | undefined,
  ids: bigint[],
): number {
  const width = columns.length;
  let k = 0;
  try {
    for (; k < ids.length; k++) {
      const slot = slots === undefined ? k : slots[k]!;
      rows[(slot / width) | 0]![columns[slot % width]!] = ids[k];
    }
  } catch {}
  return k;
}

/** The first k whose slot (k without `slots`) does not read back ids[k], or -1. */
function firstNotTaken(
  rows: Row[],
  columns: readonly string[],
  slots: number[] | undefined,
  ids: bigint[],
): number {
  return slots === undefined && columns.length === 1
    ? firstNotInColumn(rows, columns[0]!, ids)
    : firstSlotNotTaken(rows, columns, slots, ids);
}

/** The first k whose row k does not read back ids[k] in `column`, or -1 (a function of its own, as writeColumn). */
function firstNotInColumn(rows: Row[], column: string, ids: bigint[]): number {
  for (let k = 0; k < ids.length; k++) if (rows[k]![column] !== ids[k]) return k;
  return -1;
}

function firstSlotNotTaken(
  rows: Row[],
  columns: readonly string[],
  slots: number[] | undefined,
  ids: bigint[],
): number {
  const width = columns.length;
  for (let k = 0; k < ids.length; k++) {
    const slot = slots === undefined ? k : slots[k]!;
    if (rows[(slot / width) | 0]![columns[slot % width]!] !== ids[k]) return k;
  }
  return -1;
}

/**
 * Restores the `written` slots to what `before` says they held, and throws naming the row of slot
 * `failed` (or, for a row passed twice, its later place).
 */
function undoAndRefuse(
  rows: Row[],
  columns: readonly string[],
  slots: number[],
  ids: bigint[],
  before: Uint8Array,
  written: number,
  failed: number,
): never {
  const width = columns.length;
  // Which slot to name: one whose id ended up in another slot of the same object is the later
  // place of a row passed twice; any other did not take its id.
  const slot = slots[failed]!;
  const i = (slot / width) | 0;
  const column = columns[slot % width]!;
  const now = failed < written ? rows[i]![column] : undefined;
  const later = now === undefined ? -1 : ids.indexOf(now as bigint, failed + 1);
  const twice = later >= 0 && rows[(slots[later]! / width) | 0] === rows[i];
  for (let u = written - 1; u >= 0; u--) {
    const back = slots[u]!;
    const row = rows[(back / width) | 0]!;
    const name = columns[back % width]!;
    // Each slot on its own: a setter that throws on undo leaves the others to be undone.
    try {
      if (before[u] === ABSENT) delete row[name];
      else row[name] = before[u] === NULL ? null : undefined;
    } catch {}
  }
  const named = twice ? (slots[later]! / width) | 0 : i;
  throw new InvalidArgumentError(
    `rows[${named}]`,
    twice
      ? 'each row object once in rows (with fillInPlace its id is written into it)'
      : `a row object its "${column}" can be written into (with fillInPlace the id is written into your row: pass a copy, or leave fillInPlace off)`,
    rows[named],
  );
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
