import { InvalidArgumentError } from '@snowkey/core';
import type { Knex } from 'knex';
import type { GameRow } from './game-rows.js';
import type { TableSpec } from './game-schema.js';
import type { RenameRecord } from './merge-bookkeeping.js';

/**
 * The name a row from server `serverId` takes when `name` is taken: `Aria` -> `Aria.S2`, and
 * `Aria.S2.2`, `Aria.S2.3`... when that is taken too (a player may really be called `Aria.S2`).
 * With `maxLength`, the name is cut so the suffix fits the column: a UNIQUE VARCHAR(40) never
 * receives 41 characters (PostgreSQL and strict MySQL would refuse them and stop the merge).
 *
 * @example
 * suffixedName('Aria', 2, 1);              // 'Aria.S2'
 * suffixedName('Aria', 2, 2);              // 'Aria.S2.2'
 * suffixedName('Abcdefghij', 2, 1, 8);     // 'Abcde.S2'
 */
export function suffixedName(name: string, serverId: number, attempt: number, maxLength?: number): string {
  const suffix = attempt === 1 ? `.S${serverId}` : `.S${serverId}.${attempt}`;
  if (maxLength === undefined) return name + suffix;
  if (maxLength <= suffix.length) {
    throw new InvalidArgumentError('maxLength', `more than ${suffix.length} (the suffix)`, maxLength);
  }
  // Code points, not UTF-16 units: a name is never cut inside a character.
  return [...name].slice(0, maxLength - suffix.length).join('') + suffix;
}

/**
 * Renames, in place, the rows of a batch whose unique name (`table.nameColumn`) is already taken
 * in the target (by a row with another id) or by an earlier row of the batch, and returns the
 * renames. The first row to arrive keeps the name: sources are merged in a fixed order, and a
 * resumed merge meets the target exactly as an uninterrupted one did, so it decides the same.
 *
 * @example
 * const renames = await resolveNameClashes(trx, tableSpec('players'), rows, 2);
 * // rows[i].name === 'Aria.S2'; renames[0] = { oldName: 'Aria', newName: 'Aria.S2', ... }
 */
export async function resolveNameClashes(
  trx: Knex.Transaction,
  table: TableSpec,
  rows: GameRow[],
  serverId: number,
): Promise<RenameRecord[]> {
  const column = table.nameColumn;
  if (rows.length === 0 || column === undefined) return [];
  const maxLength = table.columns.find((c) => c.name === column)?.length;
  const names = rows.map((r) => String(r[column]));
  const holders = new Map<string, bigint>();
  for (const r of await trx(table.name).select('id', column).whereIn(column, names)) {
    holders.set(String(r[column]), BigInt(r.id));
  }
  const isTaken = async (name: string, id: bigint): Promise<boolean> => {
    const holder = holders.get(name);
    if (holder !== undefined) return holder !== id;
    const [row] = await trx(table.name).select('id').where(column, name).limit(1);
    return row !== undefined && BigInt(row.id) !== id;
  };
  const renames: RenameRecord[] = [];
  for (const row of rows) {
    const original = String(row[column]);
    let name = original;
    for (let attempt = 1; await isTaken(name, row.id); attempt++)
      name = suffixedName(original, serverId, attempt, maxLength);
    holders.set(name, row.id);
    if (name !== original) {
      row[column] = name;
      renames.push({ table: table.name, id: row.id, serverId, oldName: original, newName: name });
    }
  }
  return renames;
}
