import { layouts } from '@snowkey/core';
import {
  type MergeDatabase,
  openDatabase,
  runMerge,
  runRekey,
  verifyMerge,
  verifyRekey,
} from '@snowkey/merge';
import type { DatabaseRef } from './database.js';
import type { DatabaseHost } from './database-host.js';
import { createGameDatabase, type Shard } from './shards.js';

/** What re-keying the AUTO_INCREMENT shards and merging them did. */
export interface RekeyedMerge {
  /** Rows of all shards, re-keyed (each verified against its shard). */
  readonly rekeyedRows: number;
  readonly rowsMerged: number;
  readonly collisions: number;
  readonly renames: number;
  readonly target: DatabaseRef;
  /** True when every rekey and the merge verified. */
  readonly ok: boolean;
  readonly problems: readonly string[];
}

/**
 * The fix for the AUTO_INCREMENT contrast: `@snowkey/merge` re-keys each shard into
 * `<prefix>_rk_s<id>` (snowkey ids with the server's id, every reference rewritten, the old ids
 * kept in `snowkey_rekey_map`), then merges the re-keyed shards into `<prefix>_rk_merged` with
 * clashing player and guild names renamed, and verifies both steps.
 *
 * @example
 * const fixed = await rekeyAndMerge(host, 'demo_ai', aiShards);
 * fixed.collisions; // 0
 */
export async function rekeyAndMerge(
  host: DatabaseHost,
  prefix: string,
  shards: readonly Shard[],
): Promise<RekeyedMerge> {
  const open: MergeDatabase[] = [];
  const db = async (ref: DatabaseRef) => {
    const d = await openDatabase(ref.url);
    open.push(d);
    return d;
  };
  try {
    const problems: string[] = [];
    let rekeyedRows = 0;
    const sources = [];
    for (const shard of shards) {
      const ref = await createGameDatabase(host, prefix, `rk_s${shard.serverId}`);
      const options = {
        source: await db(shard.ref),
        target: await db(ref),
        layout: layouts.gameServer,
        node: { serverId: shard.serverId },
      };
      rekeyedRows += (await runRekey(options)).totals.rowsCopied;
      problems.push(...(await verifyRekey(options)).problems);
      sources.push({ label: shard.label, db: options.target });
    }
    const target = await createGameDatabase(host, prefix, 'rk_merged');
    const inputs = {
      sources,
      target: await db(target),
      onConflict: { 'players.name': 'rename', 'guilds.name': 'rename' } as const,
    };
    const run = await runMerge(inputs);
    problems.push(...(await verifyMerge(inputs)).problems);
    return {
      rekeyedRows,
      rowsMerged: run.totals.copied,
      collisions: run.totals.collisions,
      renames: run.totals.renames,
      target,
      ok: problems.length === 0,
      problems,
    };
  } finally {
    await Promise.allSettled(open.map((d) => d.close()));
  }
}
