import { decode, type Layout } from '@snowkey/core';
import {
  BOOKKEEPING_TABLES,
  type Interruptions,
  type MergeDatabase,
  type MergeInputs,
  type MergeRunResult,
  openDatabase,
  type ProgressEvent,
  runMerge,
  type Verification,
  verifyMerge,
} from '@snowkey/merge';
import type { DatabaseRef } from './database.js';
import { GAME_TABLES } from './game-schema.js';

/**
 * The game's unique names: a later server's player or guild whose name is taken gets its suffix
 * (`Aria` -> `Aria.S2`), recorded in `snowkey_merge_renames`.
 *
 * @example
 * await runMerge({ sources, target, onConflict: GAME_POLICIES });
 */
export const GAME_POLICIES = { 'players.name': 'rename', 'guilds.name': 'rename' } as const;

/** One game server's database in a merge. */
export interface GameSource {
  readonly serverId: number;
  readonly ref: DatabaseRef;
}

/** One recorded rename, as the reports show it. */
export interface RenameRecord {
  readonly table: string;
  readonly id: bigint;
  readonly source: string;
  readonly oldName: string;
  readonly newName: string;
}

/** The engine's verification, with the game's own check of where each id was born. */
export interface GameVerification extends Verification {
  /** Rows whose id does not decode to the server they came from (and players to their `home_server`); null without a layout. */
  readonly wrongOrigin: number | null;
  readonly renames: readonly RenameRecord[];
}

/** Options of {@link mergeGame}. */
export interface GameMergeOptions extends Interruptions {
  readonly sources: readonly GameSource[];
  readonly target: DatabaseRef;
  readonly batchSize?: number;
  readonly onProgress?: (p: ProgressEvent) => void;
  /** `record` for the contrasts, whose keys collide on purpose. Default `fail`. */
  readonly keyCollisions?: 'fail' | 'record';
  /** The ids' layout: each id must decode to its server. */
  readonly layout?: Layout;
  /** Tables of the servers that are not the game's, left out of the merge (a key allocator's own table). */
  readonly exclude?: readonly string[];
}

/**
 * Merges game servers with `@snowkey/merge` (the game's names renamed on a clash), then verifies
 * the merge and, given the ids' layout, that every id still decodes to the server it was born on.
 *
 * @example
 * const { merge, verification } = await mergeGame({ sources: shards, target, layout: layouts.gameServer });
 * verification.ok; // true
 */
export async function mergeGame(
  options: GameMergeOptions,
): Promise<{ merge: MergeRunResult; verification: GameVerification }> {
  const open: MergeDatabase[] = [];
  try {
    const target = await openDatabase(options.target.url);
    open.push(target);
    const sources = [];
    for (const s of options.sources) {
      const db = await openDatabase(s.ref.url);
      open.push(db);
      sources.push({ label: `S${s.serverId}`, db, serverId: s.serverId });
    }
    const inputs: MergeInputs = {
      sources,
      target,
      onConflict: GAME_POLICIES,
      keyCollisions: options.keyCollisions ?? 'fail',
      exclude: options.exclude,
    };
    const merge = await runMerge({ ...options, ...inputs });
    return { merge, verification: await verifyGame(inputs, sources, options.layout) };
  } finally {
    await Promise.allSettled(open.map((d) => d.close()));
  }
}

async function verifyGame(
  inputs: MergeInputs,
  sources: readonly { label: string; db: MergeDatabase; serverId: number }[],
  layout: Layout | undefined,
): Promise<GameVerification> {
  const v = await verifyMerge(inputs);
  const problems = [...v.problems];
  let wrongOrigin: number | null = null;
  if (layout) {
    wrongOrigin = 0;
    const born = (id: unknown) => decode(BigInt(id as bigint), { layout }).serverId;
    for (const s of sources) {
      for (const t of GAME_TABLES) {
        for (const r of await s.db.query<{ id: unknown }>(`SELECT id FROM ${t.name}`))
          if (born(r.id) !== s.serverId) wrongOrigin++;
      }
    }
    for (const p of await inputs.target.query<{ id: unknown; home_server: unknown }>(
      'SELECT id, home_server FROM players',
    )) {
      if (born(p.id) !== Number(p.home_server)) wrongOrigin++;
    }
    if (wrongOrigin > 0) problems.push(`${wrongOrigin} ids do not decode to the server they were born on`);
  }
  const renames = (
    await inputs.target.query<Record<string, unknown>>(
      `SELECT table_name, row_key, source_label, old_value, new_value FROM ${BOOKKEEPING_TABLES.renames} ORDER BY table_name, row_key`,
    )
  ).map((r) => ({
    table: String(r.table_name),
    id: BigInt(String(r.row_key)),
    source: String(r.source_label),
    oldName: String(r.old_value),
    newName: String(r.new_value),
  }));
  return { ...v, ok: problems.length === 0, problems, wrongOrigin, renames };
}
