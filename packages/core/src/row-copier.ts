import { copyRow } from './copy-row.js';

type Row = Record<string, unknown>;
/** A shape's copy of `row`, or undefined when `row`'s keys are not the shape's (see compile). */
type Copy = (row: object) => Row | undefined;

/** Shapes compiled into a copy function, shared by every copier: same columns, same function. */
const compiled = new Map<string, Copy>();
/** Beyond these, rows are copied by {@link copyRow}: no unbounded growth with dynamic columns. */
const MAX_COMPILED = 256;
const MAX_COLUMNS = 64;
/** Shapes one copier remembers, as a polymorphic inline cache does. */
const MAX_SHAPES = 4;
/** Cleared once code generation is refused (`--disallow-code-generation-from-strings`, a CSP). */
let codegen = true;

/**
 * Copies rows for an adapter that fills id columns without mutating the caller's objects, as
 * cheaply as an object literal: for each shape of row it meets (the same columns in the same
 * order, a plain object), it builds once a function that returns
 * `{ "col1": row["col1"], ..., "id": undefined }`, so a copy is one allocation with every column
 * and id column in place and the id written after it is a plain store. A copy holds the row's own
 * enumerable string-keyed properties (its columns) in their order, the `room` columns it lacks set
 * to `undefined` at the end. Shapes are learned from plain objects (up to 4 per copier, 64
 * columns each); a row whose keys are no learned shape's, and every row where code generation is
 * not allowed, is copied by {@link copyRow}. {@link missing} tells which room columns the last
 * row lacked; {@link copyLacking} copies, with less work a row, only rows of the first shape
 * learned that lacks them all (the usual insert's).
 *
 * @example
 * const copier = new RowCopier(['id']);
 * const copy = copier.copy({ name: 'Aria' }); // { name: 'Aria', id: undefined }
 * copy.id = 5n; // the caller's object is unchanged
 */
export class RowCopier {
  /** The columns every copy has, `undefined` where the row has none (the id columns to fill). */
  readonly room: readonly string[];
  readonly #copies: Copy[] = [];
  /** Per shape, its {@link missing} bits. */
  readonly #missings: number[] = [];
  #missing = 0;
  /** The copy of the first shape learned that has none of the room columns, if any. */
  #lacking: Copy | undefined;

  constructor(room: readonly string[]) {
    this.room = [...room];
  }

  /**
   * Which {@link room} columns the last row copied did not have: bit `c` is set when `room[c]`
   * was not one of its keys, so its copy holds `undefined` there and an adapter can take an id for
   * it without reading it. Bits are set only for rows of a learned shape and for the first 31 room
   * columns; a clear bit says nothing (read the column).
   */
  get missing(): number {
    return this.#missing;
  }

  /** A plain-object copy of `row` with every {@link room} column present. */
  copy(row: object): Row {
    // Each learned shape's copy checks, with a for...in, that the row's enumerable keys are its
    // keys in its order (own keys come first, then the prototype chain's), and that the row's
    // prototype is Object.prototype (which has none) after reading it, where V8 knows the row's
    // map and the check costs nothing; on another prototype it drops from the copy the keys the
    // row only inherits (each value read once). A row of another shape gets undefined.
    const copies = this.#copies;
    for (let s = 0; s < copies.length; s++) {
      const copy = copies[s]!(row);
      if (copy !== undefined) {
        this.#missing = this.#missings[s]!;
        return copy;
      }
    }
    this.#missing = 0;
    return this.#learn(row);
  }

  /**
   * A copy of `row`, as {@link copy} makes it, when `row` is of the first learned shape that has
   * none of the {@link room} columns (so each of them takes an id without being read); undefined,
   * with nothing of `row` read, for any other row, which {@link copy} then copies (and learns). The usual insert's rows are all of
   * one such shape: this is the cheaper call for them, and it leaves {@link missing} as it was.
   */
  copyLacking(row: object): Row | undefined {
    return this.#lacking?.(row);
  }

  #learn(row: object): Row {
    if (!isPlain(row)) return withRoom(copyRow(row), this.room);
    const keys = Object.keys(row);
    const copy = this.#copies.length < MAX_SHAPES ? compile(keys, this.room) : undefined;
    // undefined: no room for another shape, or its for...in lists inherited keys too (an
    // enumerable key added to Object.prototype), so no row of it could match.
    const copied = copy?.(row);
    if (copy === undefined || copied === undefined) return withRoom(copyRow(row), this.room);
    // One pass over the room columns: which the shape lacks (bits for the first 31), and whether it
    // has any of them at all.
    let missing = 0;
    let hasRoomColumn = false;
    for (let c = 0; c < this.room.length; c++) {
      if (keys.includes(this.room[c]!)) hasRoomColumn = true;
      else if (c < 31) missing |= 1 << c;
    }
    this.#copies.push(copy);
    this.#missings.push(missing);
    if (this.#lacking === undefined && !hasRoomColumn) this.#lacking = copy;
    this.#missing = missing;
    return copied;
  }
}

function isPlain(row: object): boolean {
  return Object.getPrototypeOf(row) === Object.prototype;
}

/**
 * `copy`, made by a shape's literal from a row whose prototype is not `Object.prototype`, without
 * the keys the row only inherits (an enumerable key of its prototype chain), the room columns
 * among them set back to `undefined`: the row's own enumerable keys, as `Object.assign` copies.
 */
function ownOnly(copy: Row, row: object, keys: readonly string[], room: readonly string[]): Row {
  for (const key of keys) if (!Object.hasOwn(row, key)) delete copy[key];
  return withRoom(copy, room);
}

function withRoom(copy: Row, room: readonly string[]): Row {
  for (const column of room) if (!Object.hasOwn(copy, column)) copy[column] = undefined;
  return copy;
}

/**
 * `name` as a property name in an object literal: a JavaScript string literal (JSON.stringify
 * writes one, so nothing in a column name runs), computed for `__proto__`, which as a plain name
 * would set the copy's prototype instead of defining a property.
 */
function propertyName(name: string): string {
  const literal = JSON.stringify(name);
  return name === '__proto__' ? `[${literal}]` : literal;
}

function compile(keys: readonly string[], room: readonly string[]): Copy | undefined {
  if (!codegen || keys.length + room.length > MAX_COLUMNS) return undefined;
  const cacheKey = JSON.stringify([keys, room]);
  const known = compiled.get(cacheKey);
  if (known !== undefined) return known;
  if (compiled.size >= MAX_COMPILED) return undefined;
  const fields = keys.map((k) => `${propertyName(k)}: row[${JSON.stringify(k)}]`);
  for (const column of room) if (!keys.includes(column)) fields.push(`${propertyName(column)}: undefined`);
  // One case a key: compared with a constant, not read from an array.
  const cases = keys.map((k, j) => `case ${j}: if (key !== ${JSON.stringify(k)}) return undefined; break;`);
  const repair = (copy: Row, row: object): Row => ownOnly(copy, row, keys, room);
  let copy: Copy;
  try {
    copy = new Function(
      'repair',
      `return function copy(row) {
        let j = 0;
        for (const key in row) {
          switch (j++) { ${cases.join(' ')} default: return undefined; }
        }
        if (j !== ${keys.length}) return undefined;
        const copy = { ${fields.join(', ')} };
        return Object.getPrototypeOf(row) === Object.prototype ? copy : repair(copy, row);
      };`,
    )(repair) as Copy;
  } catch {
    codegen = false;
    return undefined;
  }
  compiled.set(cacheKey, copy);
  return copy;
}
