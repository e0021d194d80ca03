import { InvalidArgumentError } from '@snowkey/core';
import { type CopyOrder, copyOrder } from './copy-order.js';
import type { MergeDatabase } from './database.js';
import { readSchema } from './read-schema.js';
import { column, type ForeignKeyInfo, rowKey, type TableInfo, type UniqueInfo } from './schema.js';

/**
 * What to do when a source row's value of a unique constraint is already held by another row of
 * the target: `rename` adds the source's suffix (`Aria` -> `Aria.S2`, recorded), `skip` leaves the
 * row out and points references to it at the row that holds the value (recorded), `fail` stops.
 *
 * @example
 * const policies: Record<string, ConflictPolicy> = { 'players.name': 'rename', 'item_kinds.code': 'skip' };
 */
export type ConflictPolicy = 'rename' | 'skip' | 'fail';

/**
 * One shard to merge. `label` names it in reports and is the rename suffix (`Aria.S2`).
 *
 * @example
 * const source: MergeSource = { label: 'S2', db: await openDatabase('postgres://postgres@127.0.0.1/game_s2') };
 */
export interface MergeSource {
  readonly label: string;
  readonly db: MergeDatabase;
}

/**
 * The inputs of a merge: what {@link planMerge}, {@link runMerge} and {@link verifyMerge} share.
 * A resumed run must be given the same sources in the same order, the same policies, the same
 * `keyCollisions` and the same `exclude`.
 *
 * @example
 * const inputs: MergeInputs = {
 *   sources: [{ label: 'S1', db: s1 }, { label: 'S2', db: s2 }],
 *   target,
 *   onConflict: { 'players.name': 'rename', 'guilds.name': 'rename' },
 * };
 */
export interface MergeInputs {
  readonly sources: readonly MergeSource[];
  /** The merged database. It must have the tables already (with the sources' columns). */
  readonly target: MergeDatabase;
  /**
   * A policy per unique constraint, named `table.column` (or `table.a+b` for several columns).
   * Unnamed constraints fail on a conflict.
   */
  readonly onConflict?: Readonly<Record<string, ConflictPolicy>>;
  /**
   * A source row whose primary key another row of the target holds: `fail` (the default) stops
   * the merge, `record` leaves the row out and records it in `snowkey_merge_collisions` (the
   * merge then fails verification: with AUTO_INCREMENT keys, `rekey` the shards first).
   */
  readonly keyCollisions?: 'fail' | 'record';
  /** Tables not to copy (for example a log table without a key). */
  readonly exclude?: readonly string[];
}

/** A unique constraint of a table and its policy. */
export interface UniqueRule {
  readonly id: string;
  readonly unique: UniqueInfo;
  readonly policy: ConflictPolicy;
  /** For `rename`: the text column that gets the suffix, and its length. */
  readonly renameColumn?: string;
  readonly maxLength?: number | null;
}

/** One table as the merge handles it. */
export interface TablePlanInfo {
  readonly table: TableInfo;
  readonly key: readonly string[];
  /** Columns copied, per source position (the source's own non-generated columns). */
  readonly columns: ReadonlyMap<number, readonly string[]>;
  readonly rules: readonly UniqueRule[];
  readonly deferred: readonly ForeignKeyInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
  readonly overridingSystemValue: boolean;
}

/** The schema-level facts of a merge, read from the databases. */
export interface MergeSetup {
  readonly order: readonly string[];
  readonly tables: ReadonlyMap<string, TablePlanInfo>;
  readonly problems: readonly string[];
  readonly fingerprint: string;
  readonly copy: CopyOrder;
}

/** Checks the inputs (an InvalidArgumentError naming the first bad one). */
export function checkInputs(inputs: MergeInputs): void {
  if (!Array.isArray(inputs.sources) || inputs.sources.length === 0) {
    throw new InvalidArgumentError('sources', 'a non-empty array of { label, db }', inputs.sources);
  }
  const labels = new Set<string>();
  for (const s of inputs.sources) {
    if (typeof s?.label !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(s.label)) {
      throw new InvalidArgumentError(
        'sources[].label',
        'letters, digits, _ or -, 1..32 characters',
        s?.label,
      );
    }
    if (labels.has(s.label)) throw new InvalidArgumentError('sources[].label', 'distinct labels', s.label);
    labels.add(s.label);
  }
  for (const [id, p] of Object.entries(inputs.onConflict ?? {})) {
    if (!['rename', 'skip', 'fail'].includes(p)) {
      throw new InvalidArgumentError(`onConflict["${id}"]`, 'rename, skip or fail', p);
    }
  }
  const kc = inputs.keyCollisions ?? 'fail';
  if (kc !== 'fail' && kc !== 'record') throw new InvalidArgumentError('keyCollisions', 'fail or record', kc);
}

/** The name a policy uses for a unique constraint: `players.name`, `ranks.guild_id+name`. */
export function uniqueId(table: string, u: UniqueInfo): string {
  return `${table}.${u.columns.join('+')}`;
}

/**
 * Reads the target's and the sources' schemas and works out what the merge does per table, and
 * every reason it cannot run.
 */
export async function setUpMerge(inputs: MergeInputs): Promise<MergeSetup> {
  checkInputs(inputs);
  const target = await readSchema(inputs.target);
  const sources = await Promise.all(inputs.sources.map((s) => readSchema(s.db)));
  const exclude = new Set(inputs.exclude ?? []);
  const policies = new Map(Object.entries(inputs.onConflict ?? {}));
  const problems: string[] = [];
  const targetTables = new Map(target.tables.map((t) => [t.name, t]));
  for (const [i, s] of sources.entries()) {
    for (const t of s.tables) {
      if (!targetTables.has(t.name) && !exclude.has(t.name)) {
        problems.push(
          `table ${t.name} of ${inputs.sources[i]!.label} is not in the target (create it, or exclude it)`,
        );
      }
    }
  }
  for (const name of exclude) {
    if (!targetTables.has(name) && !sources.some((s) => s.tables.some((t) => t.name === name))) {
      problems.push(`excluded table ${name} is in no database`);
    }
  }
  const included = target.tables.filter(
    (t) => !exclude.has(t.name) && sources.some((s) => s.tables.some((x) => x.name === t.name)),
  );
  const copy = copyOrder(included);
  problems.push(...copy.cycles);
  const referencedUniques = new Set(
    included.flatMap((t) =>
      t.foreignKeys.map((fk) => `${fk.refTable}.${[...fk.refColumns].sort().join('+')}`),
    ),
  );
  const tables = new Map<string, TablePlanInfo>();
  for (const t of included) {
    const key = rowKey(t);
    if (!key) {
      problems.push(
        `table ${t.name} has no primary key and no NOT NULL unique key, so its rows cannot be told apart (add a key, or exclude it)`,
      );
      continue;
    }
    const columns = new Map<number, string[]>();
    for (const [i, s] of sources.entries()) {
      const st = s.tables.find((x) => x.name === t.name);
      if (!st) continue;
      const cols = st.columns.filter((c) => !c.generated).map((c) => c.name);
      const missing = cols.filter((c) => !t.columns.some((x) => x.name === c && !x.generated));
      if (missing.length > 0) {
        problems.push(
          `${t.name} of ${inputs.sources[i]!.label} has columns the target lacks: ${missing.join(', ')}`,
        );
      }
      const lacking = key.filter((c) => !cols.includes(c));
      if (lacking.length > 0)
        problems.push(`${t.name} of ${inputs.sources[i]!.label} lacks the key columns ${lacking.join(', ')}`);
      columns.set(i, cols);
    }
    const rules: UniqueRule[] = [];
    for (const u of t.uniques) {
      if (u.columns.join() === key.join()) continue;
      const id = uniqueId(t.name, u);
      const policy = policies.get(id) ?? 'fail';
      policies.delete(id);
      if (policy !== 'rename') {
        rules.push({ id, unique: u, policy });
        continue;
      }
      const texts = u.columns.filter((c) => column(t, c).text);
      if (texts.length !== 1) {
        problems.push(
          `${id}: rename needs exactly one text column in the constraint (it has ${texts.length})`,
        );
        continue;
      }
      if (referencedUniques.has(`${t.name}.${[...u.columns].sort().join('+')}`)) {
        problems.push(`${id}: rename would break the foreign keys that reference it (use skip or fail)`);
        continue;
      }
      rules.push({
        id,
        unique: u,
        policy,
        renameColumn: texts[0]!,
        maxLength: column(t, texts[0]!).maxLength,
      });
    }
    tables.set(t.name, {
      table: t,
      key,
      columns,
      rules,
      deferred: copy.deferred.filter((fk) => fk.table === t.name),
      foreignKeys: t.foreignKeys.filter((fk) => included.some((x) => x.name === fk.refTable)),
      overridingSystemValue: t.columns.some((c) => c.identityAlways),
    });
  }
  for (const id of policies.keys()) {
    const known = [...tables.values()].flatMap((x) => x.table.uniques.map((u) => uniqueId(x.table.name, u)));
    problems.push(
      `onConflict names ${id}, which is no unique constraint of a merged table (there are: ${known.join(', ') || 'none'})`,
    );
  }
  const fingerprint = JSON.stringify({
    sources: await Promise.all(
      inputs.sources.map(async (s, i) => `${s.label}=${sources[i]!.dialect}:${s.db.name}`),
    ),
    onConflict: Object.fromEntries(Object.entries(inputs.onConflict ?? {}).sort()),
    keyCollisions: inputs.keyCollisions ?? 'fail',
    exclude: [...exclude].sort(),
  });
  return { order: copy.order.filter((n) => tables.has(n)), tables, problems, fingerprint, copy };
}
