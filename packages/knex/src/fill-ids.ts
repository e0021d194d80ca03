import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { generateOrKeep, takeIds } from '@snowkey/core/adapter';
import type { Row, RowCopier } from './copy-row.js';
import { writeInPlace } from './write-in-place.js';

export type { Row } from './copy-row.js';

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
 * Copies of the rows (by `copy`) with every missing snowflake column filled (core's
 * `generateOrKeep`), or without `copy` the caller's own rows, all or none.
 */
export function fillIds(
  generator: IdGenerator,
  columns: readonly string[],
  input: unknown,
  copy: RowCopier | undefined,
): Row[] {
  const rows: unknown[] = Array.isArray(input) ? input : [input];
  if (copy === undefined) return fillInPlace(generator, columns, rows, input);
  const targets: Row[] = new Array(rows.length);
  // One name for core's rule for the whole call, built only for a refused value.
  let at = 0;
  let column = '';
  const argument = () => `rows[${at}].${column}`;
  // Two passes, no list of fills: a copy has every id column as an own property, and an id is
  // written only where the rule still says generate, after every value was checked.
  let count = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!isRow(row)) throw notARow(input, i, row);
    const target = copy(row);
    for (let c = 0; c < columns.length; c++) {
      column = columns[c]!;
      at = i;
      if (generateOrKeep(target[column], argument) === 'generate') count++;
    }
    targets[i] = target;
  }
  const ids = takeIds(generator, count);
  let k = 0;
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i]!;
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c]!;
      if (generateOrKeep(target[column], argument) === 'generate') target[column] = ids[k++];
    }
  }
  return targets;
}

function fillInPlace(
  generator: IdGenerator,
  columns: readonly string[],
  rows: unknown[],
  input: unknown,
): Row[] {
  const fills: Fill[] = [];
  let at = 0;
  let column = '';
  const argument = () => `rows[${at}].${column}`;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!isRow(row)) throw notARow(input, i, row);
    for (let c = 0; c < columns.length; c++) {
      column = columns[c]!;
      // `in` first: for the usual absent column it answers alone (Object.hasOwn: ~150 instructions).
      const own = column in row && Object.hasOwn(row, column);
      const value = row[column];
      at = i;
      if (generateOrKeep(value, argument) === 'generate')
        fills.push({ index: i, row, column, own, held: value });
    }
  }
  writeInPlace(fills, takeIds(generator, fills.length));
  return rows.slice() as Row[];
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
