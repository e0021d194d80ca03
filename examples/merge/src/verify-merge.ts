import { decode, type Layout } from '@snowkey/core';
import type { Knex } from 'knex';
import { readAll, sameRow } from './game-rows.js';
import { foreignKeys, GAME_TABLES } from './game-schema.js';
import {
  collidedIds,
  countCollisions,
  MERGE_TABLES,
  type RenameRecord,
  readRenames,
} from './merge-bookkeeping.js';

/** Rows of one table before and after the merge. */
export interface TableCheck {
  readonly table: string;
  /** Rows per source, by label. */
  readonly before: Readonly<Record<string, number>>;
  readonly sourceTotal: number;
  readonly merged: number;
  /** Source rows not in the target as they were (absent, changed, or their key holds another row). */
  readonly lost: number;
  /** Target rows that come from no source. */
  readonly extra: number;
  /** Source rows whose id an earlier source holds too: key collisions (each one also lost). */
  readonly sharedKeys: number;
  /** Copied rows whose reference now points at another server's row (its key collided). */
  readonly misattached: number;
}

/** What {@link verifyMerge} found. */
export interface MergeVerification {
  readonly tables: readonly TableCheck[];
  /** Foreign keys of the target that do not resolve, per `table.column`. */
  readonly danglingReferences: Readonly<Record<string, number>>;
  /** Rows whose id does not decode to the server they were born on; null without a layout. */
  readonly wrongOrigin: number | null;
  readonly recordedCollisions: Readonly<Record<string, number>>;
  readonly renames: readonly RenameRecord[];
  /** Names that changed in the merge without a rename record, or records that do not match. */
  readonly unrecordedRenames: number;
  readonly ok: boolean;
  /** One line per failed check. */
  readonly problems: readonly string[];
}

/** A merged shard as the verifier sees it. */
export interface VerifySource {
  readonly serverId: number;
  readonly db: Knex;
  readonly label?: string;
}

/**
 * Checks a merge against its sources: every source row is in the target exactly once (names
 * aside, where the rename table explains the difference), nothing else is, no key was shared by
 * two servers, every foreign key resolves (by SQL on the target), and, given the id `layout`,
 * every id still decodes to the server whose shard it came from.
 *
 * @example
 * const v = await verifyMerge({ sources: [{ serverId: 1, db: s1 }, { serverId: 2, db: s2 }], target, layout: layouts.gameServer });
 * v.ok;          // true
 * v.renames[0];  // { table: 'players', oldName: 'Aria', newName: 'Aria.S2', ... }
 */
export async function verifyMerge(options: {
  sources: readonly VerifySource[];
  target: Knex;
  layout?: Layout;
}): Promise<MergeVerification> {
  const { sources, target, layout } = options;
  const hasBookkeeping = await target.schema.hasTable(MERGE_TABLES.renames);
  const renames = hasBookkeeping ? await readRenames(target) : [];
  const recordedCollisions = hasBookkeeping ? await countCollisions(target) : {};
  const renameOf = new Map(renames.map((r) => [`${r.table}:${r.id}`, r]));
  const problems: string[] = [];
  const tables: TableCheck[] = [];
  let wrongOrigin = layout ? 0 : null;
  let unrecordedRenames = 0;
  const matchedRenames = new Set<string>();

  for (const table of GAME_TABLES) {
    const merged = new Map((await readAll(target, table)).map((r) => [r.id, r]));
    const owner = new Map<bigint, number>();
    const before: Record<string, number> = {};
    let lost = 0;
    let sharedKeys = 0;
    let misattached = 0;
    const refs = table.columns.filter((c) => c.kind === 'ref');
    for (const source of sources) {
      const label = source.label ?? `S${source.serverId}`;
      const rows = await readAll(source.db, table);
      before[label] = rows.length;
      const collidedParents = new Map<string, Set<bigint>>();
      if (hasBookkeeping) {
        for (const c of refs)
          collidedParents.set(c.name, await collidedIds(target, c.references!, source.serverId));
      }
      for (const row of rows) {
        if (layout && wrongOrigin !== null && decode(row.id, { layout }).serverId !== source.serverId)
          wrongOrigin++;
        // A key an earlier shard holds too: the merged row under it is that shard's, so this row
        // is lost, even when every value happens to match (two rows, one key).
        if (owner.has(row.id)) {
          sharedKeys++;
          lost++;
          continue;
        }
        owner.set(row.id, source.serverId);
        const there = merged.get(row.id);
        const column = table.nameColumn;
        if (!there || !sameRow(table, there, row, column ? [column] : [])) {
          lost++;
          continue;
        }
        if (column && there[column] !== row[column]) {
          const key = `${table.name}:${row.id}`;
          const record = renameOf.get(key);
          if (record !== undefined && record.oldName === row[column] && record.newName === there[column]) {
            matchedRenames.add(key);
          } else unrecordedRenames++;
        }
        if (
          refs.some((c) => row[c.name] !== null && collidedParents.get(c.name)?.has(row[c.name] as bigint))
        ) {
          misattached++;
        }
      }
    }
    const extra = [...merged.keys()].filter((id) => !owner.has(id)).length;
    const sourceTotal = Object.values(before).reduce((a, b) => a + b, 0);
    if (layout && wrongOrigin !== null && table.name === 'players') {
      for (const p of merged.values()) if (decode(p.id, { layout }).serverId !== p.home_server) wrongOrigin++;
    }
    tables.push({
      table: table.name,
      before,
      sourceTotal,
      merged: merged.size,
      lost,
      extra,
      sharedKeys,
      misattached,
    });
    if (merged.size !== sourceTotal)
      problems.push(`${table.name}: ${sourceTotal} rows in the shards, ${merged.size} merged`);
    if (lost > 0)
      problems.push(`${table.name}: ${lost} source rows are not in the merged database as they were`);
    if (extra > 0) problems.push(`${table.name}: ${extra} merged rows come from no shard`);
    if (sharedKeys > 0) problems.push(`${table.name}: ${sharedKeys} keys exist on more than one shard`);
    if (misattached > 0)
      problems.push(`${table.name}: ${misattached} rows now point at another server's row`);
  }

  unrecordedRenames += renames.filter((r) => !matchedRenames.has(`${r.table}:${r.id}`)).length;
  const danglingReferences = await countDanglingReferences(target);
  for (const [fk, n] of Object.entries(danglingReferences)) {
    if (n > 0) problems.push(`${fk}: ${n} references do not resolve`);
  }
  if (wrongOrigin) problems.push(`${wrongOrigin} ids do not decode to the server they were born on`);
  if (unrecordedRenames > 0) problems.push(`${unrecordedRenames} renames are missing from the rename list`);
  for (const [table, n] of Object.entries(recordedCollisions)) {
    if (n > 0) problems.push(`${table}: the merge met ${n} key collisions`);
  }
  return {
    tables,
    danglingReferences,
    wrongOrigin,
    recordedCollisions,
    renames,
    unrecordedRenames,
    ok: problems.length === 0,
    problems,
  };
}

/**
 * Foreign-key values in the target with no parent row, per `table.column`, counted by SQL.
 *
 * @example
 * await countDanglingReferences(target); // { 'guilds.leader_id': 0, 'mail.item_id': 0, ... }
 */
export async function countDanglingReferences(db: Knex): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const fk of foreignKeys()) {
    const [row] = await db(`${fk.table} as c`)
      .leftJoin(`${fk.references} as p`, 'p.id', `c.${fk.column}`)
      .whereNotNull(`c.${fk.column}`)
      .whereNull('p.id')
      .count({ n: '*' });
    out[`${fk.table}.${fk.column}`] = Number((row as { n: unknown }).n);
  }
  return out;
}
