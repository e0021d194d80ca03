import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { generateOrKeep, takeIds } from '@snowkey/core/adapter';
import { writeInPlace } from './write-in-place.js';

/** A row as passed to Knex's `insert`: column name to value. */
export type Row = Record<string, unknown>;

/** One id column of one row that takes an id, and what it held before. */
export interface Fill {
  readonly index: number;
  readonly row: Row;
  readonly column: string;
  /** Whether `column` was the row's own property (else it is deleted on undo). */
  readonly own: boolean;
  /** `undefined` or `null`: what an undo writes back. */
  readonly held: unknown;
}

/**
 * Copies of the rows with every missing snowflake column filled (core's `generateOrKeep`), or with
 * `inPlace` the caller's own rows, all or none.
 */
export function fillIds(
  generator: IdGenerator,
  columns: readonly string[],
  input: unknown,
  inPlace: boolean,
): Row[] {
  const rows: unknown[] = Array.isArray(input) ? input : [input];
  const targets: Row[] = new Array(rows.length);
  const fills: Fill[] = [];
  // One name for core's rule for the whole call, built only for a refused value.
  let at = 0;
  let column = '';
  const argument = () => `rows[${at}].${column}`;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!isRow(row)) throw notARow(input, i, row);
    // A copy holds the row's own enumerable properties only, so an inherited column is absent.
    const target: Row = inPlace ? row : copyOf(row);
    for (let c = 0; c < columns.length; c++) {
      column = columns[c]!;
      // `in` first: for the usual absent column it answers alone, where Object.hasOwn costs about
      // 150 instructions a row.
      const own = column in target && Object.hasOwn(target, column);
      const value = own || inPlace ? target[column] : undefined;
      at = i;
      if (generateOrKeep(value, argument) === 'generate')
        fills.push({ index: i, row: target, column, own, held: value });
    }
    targets[i] = target;
  }
  const ids = takeIds(generator, fills.length);
  if (inPlace) writeInPlace(fills, ids);
  else for (let k = 0; k < fills.length; k++) fills[k]!.row[fills[k]!.column] = ids[k];
  return targets;
}

/**
 * The row's own enumerable properties. `Object.assign` keeps the copies on one shared map (a spread
 * copy with the id added costs ~7k instructions a row more); a row with an own `__proto__` key is
 * spread, since `Object.assign` would set the copy's prototype from it (one holding the row's own
 * prototype is copied without that key).
 */
function copyOf(row: Row): Row {
  // biome-ignore lint/suspicious/noProto: what is read is the row's own `__proto__` key, if any.
  return row.__proto__ === Object.getPrototypeOf(row) ? Object.assign({}, row) : { ...row };
}

/** Whether `value` is a row object: an object, not null and not an array. */
function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function notARow(input: unknown, i: number, row: unknown): InvalidArgumentError {
  return new InvalidArgumentError(
    Array.isArray(input) ? `rows[${i}]` : 'rows',
    'a row object or an array of row objects',
    row,
  );
}
