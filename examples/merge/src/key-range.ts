import type { Knex } from 'knex';
import { GAME_TABLES } from './game-schema.js';

/**
 * The lowest and highest key of any game table on `db`, or null when every table is empty: the
 * keys one counter handed out to a server that serves every table from it.
 *
 * @example
 * const range = await keyRange(db); // { min: 1n, max: 2093n }
 */
export async function keyRange(db: Knex): Promise<{ min: bigint; max: bigint } | null> {
  let range: { min: bigint; max: bigint } | null = null;
  for (const t of GAME_TABLES) {
    const [row] = await db(t.name).min({ lo: 'id' }).max({ hi: 'id' });
    const { lo, hi } = row as { lo: unknown; hi: unknown };
    if (lo === null || lo === undefined || hi === null || hi === undefined) continue;
    const min = BigInt(lo as bigint);
    const max = BigInt(hi as bigint);
    range =
      range === null
        ? { min, max }
        : { min: min < range.min ? min : range.min, max: max > range.max ? max : range.max };
  }
  return range;
}
