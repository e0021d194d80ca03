import { InvalidArgumentError } from '@snowkey/core';

/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

/**
 * Where a call's ids go: id k into slot k of `rows`, a slot being `row * width + column`
 * (`width` = `columns.length`), in order. Without `slots`, slot k is k: every id column of every
 * row takes an id (the usual call), and no array is grown for it.
 */
export interface Slots {
  readonly rows: Row[];
  readonly columns: readonly string[];
  readonly slots: number[] | undefined;
}

/** What a slot held before its id: absent, `undefined` or `null` (the only values that get one). */
export const ABSENT = 0;
export const UNDEFINED = 1;
export const NULL = 2;
export const NO_SLOTS = new Uint8Array(0);

/** The slots 0..n-1: every slot before the first row that kept its own id took one. */
export function firstSlots(n: number): number[] {
  const slots: number[] = [];
  for (let k = 0; k < n; k++) slots.push(k);
  return slots;
}

/**
 * Writes `ids` into their slots, and says how many were written before a row refused its id by
 * throwing (ids.length: all).
 */
export function writeIds(at: Slots, ids: bigint[]): number {
  const column = soleColumn(at);
  return column === undefined ? writeSlots(at, ids) : writeColumn(at.rows, column, ids);
}

/**
 * Writes `ids` into the caller's rows, all or none, then reads each back: a row that cannot take
 * its id (not extensible, a read-only column, a setter that does not store) or that appears twice
 * (a later slot of the same object overwrote it) undoes every id written, restoring `before` (what
 * each slot held), and is named in the error.
 */
export function writeIdsInPlace(at: Slots, ids: bigint[], before: Uint8Array): void {
  const written = writeIds(at, ids);
  const failed = written < ids.length ? written : firstNotTaken(at, ids);
  if (failed < 0) return;
  undoAndRefuse(at.rows, at.columns, at.slots ?? firstSlots(ids.length), ids, before, written, failed);
}

/**
 * The one id column every row takes its id in, in order (one id column and no `slots`: the usual
 * call), which the loops below go by as a name fixed before the loop; undefined for any other call.
 */
function soleColumn(at: Slots): string | undefined {
  return at.slots === undefined && at.columns.length === 1 ? at.columns[0] : undefined;
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

function writeSlots({ rows, columns, slots }: Slots, ids: bigint[]): number {
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

/** The first k whose slot does not read back ids[k], or -1. */
function firstNotTaken(at: Slots, ids: bigint[]): number {
  const column = soleColumn(at);
  if (column === undefined) return firstSlotNotTaken(at, ids);
  // In a function of its own, as writeColumn.
  return firstNotInColumn(at.rows, column, ids);
}

function firstNotInColumn(rows: Row[], column: string, ids: bigint[]): number {
  for (let k = 0; k < ids.length; k++) if (rows[k]![column] !== ids[k]) return k;
  return -1;
}

function firstSlotNotTaken({ rows, columns, slots }: Slots, ids: bigint[]): number {
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
