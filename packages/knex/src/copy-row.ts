/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

/**
 * Copies one table's rows: a copy holds the row's own enumerable string-keyed properties in their
 * order, then each id column the row lacks, as `undefined`. The caller gets the copies back; its
 * rows are never written.
 */
export type RowCopier = (row: object) => Row;

type ShapeCopy = (row: object) => Row | undefined;

/** Shapes one table learns; rows of others are copied key by key. */
const MAX_SHAPES = 4;
const MAX_COLUMNS = 64;
/** Cleared once code generation is refused (`--disallow-code-generation-from-strings`, a CSP). */
let codegen = true;

/**
 * A generic copy (`Object.assign`, a key loop) costs ~1,000 instructions a row, more than the 3% of
 * a hand-set insert on MariaDB (~400); a shape's object literal costs ~250 with its check. So for
 * each shape of plain row met (the same keys in the same order, up to four), one function is
 * compiled that checks a row is of it and returns the literal.
 */
export function rowCopier(idColumns: readonly string[]): RowCopier {
  const shapes: ShapeCopy[] = [];
  // Off once four shapes are learned, or a shape fails on its own row (an enumerable key on Object.prototype).
  let learning = true;
  return (row) => {
    for (let s = 0; s < shapes.length; s++) {
      const copy = shapes[s]!(row);
      if (copy !== undefined) return copy;
    }
    const shape = learning ? compileShape(row, idColumns) : undefined;
    const copy = shape?.(row);
    if (shape !== undefined) {
      if (copy === undefined) learning = false;
      else if (shapes.push(shape) === MAX_SHAPES) learning = false;
    }
    return copy ?? copyByKeys(row, idColumns);
  };
}

function copyByKeys(row: object, idColumns: readonly string[]): Row {
  const copy: Row = {};
  for (const key of Object.keys(row)) {
    // Defined, not assigned: an own `__proto__` key stays a property and never sets the prototype.
    Object.defineProperty(copy, key, {
      value: (row as Row)[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  for (const column of idColumns) if (!Object.hasOwn(copy, column)) copy[column] = undefined;
  return copy;
}

/**
 * `function (row) { ... return { "name": row["name"], "id": undefined } }` for `row`'s keys. The
 * for...in walks a row's enumerable keys, inherited ones too, so the same keys and a prototype of
 * `Object.prototype` mean the row has exactly these, all its own. Keys reach the code only through
 * `JSON.stringify`, so nothing in a column name runs.
 */
function compileShape(row: object, idColumns: readonly string[]): ShapeCopy | undefined {
  if (!codegen || Object.getPrototypeOf(row) !== Object.prototype) return undefined;
  const keys = Object.keys(row);
  if (keys.length + idColumns.length > MAX_COLUMNS) return undefined;
  const name = (key: string) => (key === '__proto__' ? `["__proto__"]` : JSON.stringify(key));
  const fields = keys.map((key) => `${name(key)}: row[${JSON.stringify(key)}]`);
  for (const column of idColumns) if (!keys.includes(column)) fields.push(`${name(column)}: undefined`);
  const cases = keys.map((key, j) => `case ${j}: if (key !== ${JSON.stringify(key)}) return; break;`);
  try {
    return new Function(
      'plain',
      `return function copy(row) {
        let j = 0;
        for (const key in row) switch (j++) { ${cases.join(' ')} default: return; }
        if (j !== ${keys.length}) return;
        // Checked after the literal: its loads tell V8 the row's map, and the check then costs
        // nothing (before them, a runtime call, ~100 instructions a row).
        const copy = { ${fields.join(', ')} };
        if (Object.getPrototypeOf(row) === plain) return copy;
      };`,
    )(Object.prototype) as ShapeCopy;
  } catch {
    codegen = false;
    return undefined;
  }
}
