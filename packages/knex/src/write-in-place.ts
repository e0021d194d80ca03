import { InvalidArgumentError } from '@snowkey/core';
import type { Fill } from './fill-ids.js';

/**
 * Writes ids[k] into fills[k] of the caller's rows, all or none: a row that does not take its id
 * (frozen, a read-only column, a setter that does not store it) or that is passed twice (its later
 * place overwrote the id) puts every filled column back as it was and is named in the error.
 */
export function writeInPlace(fills: readonly Fill[], ids: readonly bigint[]): void {
  let k = 0;
  try {
    for (; k < fills.length; k++) fills[k]!.row[fills[k]!.column] = ids[k];
  } catch {
    throw undo(fills, k + 1, cannotTake(fills[k]!));
  }
  for (k = 0; k < fills.length; k++) {
    const { row, column } = fills[k]!;
    if (row[column] === ids[k]) continue;
    const later = fills.find((f, j) => j > k && f.row === row && f.column === column);
    throw undo(fills, fills.length, later === undefined ? cannotTake(fills[k]!) : passedTwice(later));
  }
}

/** Puts back what the first `count` fills held, each on its own (one that throws stops no other). */
function undo(fills: readonly Fill[], count: number, error: InvalidArgumentError): InvalidArgumentError {
  for (let k = count - 1; k >= 0; k--) {
    const { row, column, own, held } = fills[k]!;
    try {
      if (own) row[column] = held;
      else delete row[column];
    } catch {}
  }
  return error;
}

function cannotTake({ index, row, column }: Fill): InvalidArgumentError {
  return new InvalidArgumentError(
    `rows[${index}]`,
    `a row object its "${column}" can be written into (with fillInPlace the id is written into your row: pass a copy, or leave fillInPlace off)`,
    row,
  );
}

function passedTwice({ index, row }: Fill): InvalidArgumentError {
  return new InvalidArgumentError(
    `rows[${index}]`,
    'each row object once in rows (with fillInPlace its id is written into it)',
    row,
  );
}
