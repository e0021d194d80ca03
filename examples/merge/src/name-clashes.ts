import type { Knex } from 'knex';
import type { GameRow } from './game-rows.js';
import type { RenameRecord } from './merge-bookkeeping.js';

/**
 * The name a row from server `serverId` takes when `name` is taken: `Aria` -> `Aria.S2`, and
 * `Aria.S2.2`, `Aria.S2.3`... in the unlikely case that is taken too.
 *
 * @example
 * suffixedName('Aria', 2, 1); // 'Aria.S2'
 * suffixedName('Aria', 2, 2); // 'Aria.S2.2'
 */
export function suffixedName(name: string, serverId: number, attempt: number): string {
  return attempt === 1 ? `${name}.S${serverId}` : `${name}.S${serverId}.${attempt}`;
}

/**
 * Renames, in place, the rows of a batch whose unique name is already taken in the target (by a
 * row with another id) or by an earlier row of the batch, and returns the renames. The first row
 * to arrive keeps the name: sources are merged in a fixed order, so a rerun decides the same.
 *
 * @example
 * const renames = await resolveNameClashes(trx, 'players', 'name', rows, 2);
 * // rows[i].name === 'Aria.S2'; renames[0] = { oldName: 'Aria', newName: 'Aria.S2', ... }
 */
export async function resolveNameClashes(
  trx: Knex.Transaction,
  table: string,
  column: string,
  rows: GameRow[],
  serverId: number,
): Promise<RenameRecord[]> {
  if (rows.length === 0) return [];
  const names = rows.map((r) => String(r[column]));
  const holders = new Map<string, bigint>();
  for (const r of await trx(table).select('id', column).whereIn(column, names)) {
    holders.set(String(r[column]), BigInt(r.id));
  }
  const isTaken = async (name: string, id: bigint): Promise<boolean> => {
    const holder = holders.get(name);
    if (holder !== undefined) return holder !== id;
    const [row] = await trx(table).select('id').where(column, name).limit(1);
    return row !== undefined && BigInt(row.id) !== id;
  };
  const renames: RenameRecord[] = [];
  for (const row of rows) {
    const original = String(row[column]);
    let name = original;
    for (let attempt = 1; await isTaken(name, row.id); attempt++)
      name = suffixedName(original, serverId, attempt);
    holders.set(name, row.id);
    if (name !== original) {
      row[column] = name;
      renames.push({ table, id: row.id, serverId, oldName: original, newName: name });
    }
  }
  return renames;
}
