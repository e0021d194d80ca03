import { copyRow } from './copy-row.js';

type Row = Record<string, unknown>;
type Copy = (row: object) => Row;

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
 * to `undefined` at the end; a row of another shape, another prototype, or more than 64 columns
 * is copied by {@link copyRow}, as is every row where code generation is not allowed.
 *
 * @example
 * const copier = new RowCopier(['id']);
 * const copy = copier.copy({ name: 'Aria' }); // { name: 'Aria', id: undefined }
 * copy.id = 5n; // the caller's object is unchanged
 */
export class RowCopier {
  /** The columns every copy has, `undefined` where the row has none (the id columns to fill). */
  readonly room: readonly string[];
  readonly #shapes: (readonly string[])[] = [];
  readonly #copies: Copy[] = [];

  constructor(room: readonly string[]) {
    this.room = [...room];
  }

  /** A plain-object copy of `row` with every {@link room} column present. */
  copy(row: object): Row {
    // Only a plain object's shape can match or be learned: its prototype has no enumerable key.
    if (!isPlain(row)) return withRoom(copyRow(row), this.room);
    const shapes = this.#shapes;
    for (let s = 0; s < shapes.length; s++) {
      if (hasKeys(row, shapes[s]!)) return this.#copies[s]!(row);
    }
    return this.#learn(row);
  }

  #learn(row: object): Row {
    const keys = Object.keys(row);
    const copy = this.#shapes.length < MAX_SHAPES ? compile(keys, this.room) : undefined;
    if (copy === undefined) return withRoom(copyRow(row), this.room);
    this.#shapes.push(keys);
    this.#copies.push(copy);
    return copy(row);
  }
}

function isPlain(row: object): boolean {
  return Object.getPrototypeOf(row) === Object.prototype;
}

/**
 * Whether `row`'s enumerable keys are exactly `keys`, in order, and all its own: `row` is a plain
 * object, and an enumerable key added to `Object.prototype` shows here and fails the match.
 */
function hasKeys(row: object, keys: readonly string[]): boolean {
  let j = 0;
  // Inherited enumerable keys are listed too, after the own ones: they fail the match.
  for (const key in row) {
    if (key !== keys[j]) return false;
    j++;
  }
  return j === keys.length;
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
  let copy: Copy;
  try {
    copy = new Function('row', `return { ${fields.join(', ')} };`) as Copy;
  } catch {
    codegen = false;
    return undefined;
  }
  compiled.set(cacheKey, copy);
  return copy;
}
