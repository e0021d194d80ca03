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
 * `{ ...row }`, made by `Object.assign` where it can be: V8 gives a spread copy a map of its own
 * kind that the id then added to it turns slow, for the fill and for Knex after it (about 7k
 * instructions a row). `Object.assign` would set the prototype from an own `__proto__` key, so a
 * row whose `__proto__` reads other than its prototype, its own key, is spread (short of one whose
 * own key holds its prototype itself). Object.hasOwn(row, '__proto__') costs about 110
 * instructions a row; V8 folds these two reads away.
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
