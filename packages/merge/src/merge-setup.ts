import { InvalidArgumentError } from '@snowkey/core';
import { type CopyOrder, copyOrder } from './copy-order.js';
import type { MergeDatabase } from './database.js';
import { readSchema } from './read-schema.js';
import { checkRenameTemplate, DEFAULT_RENAME_TEMPLATE, renameRoom } from './rename-template.js';
import {
  type ColumnInfo,
  column,
  type ForeignKeyInfo,
  rowKey,
  type SchemaInfo,
  type TableInfo,
  type UniqueInfo,
} from './schema.js';
import { type SchemaDrift, schemaDrift } from './schema-drift.js';

/**
 * What to do when a source row's value of a unique constraint is already held by another row of
 * the target: `rename` adds the source's suffix (`Aria` -> `Aria.S2`, recorded), `skip` leaves the
 * row out and points references to it at the row that holds the value (recorded), `fail` stops.
 */
export type ConflictPolicy = 'rename' | 'skip' | 'fail';

/** One shard to merge. `label` names it in reports and is the rename suffix (`Aria.S2`). */
export interface MergeSource {
  readonly label: string;
  readonly db: MergeDatabase;
}

/**
 * The inputs of a merge: what {@link planMerge}, {@link runMerge} and {@link verifyMerge} share.
 * A resumed run must be given the same sources in the same order, the same policies, the same
 * `keyCollisions` and the same `exclude`.
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
  /**
   * Differences between the shards' schemas to go on with, by the `id` the plan reports
   * (`S3:accounts.nickname`), or `*` for every one. Any other difference refuses the merge.
   */
  readonly acceptDrift?: readonly string[];
  /**
   * How `rename` spells a new value: `{name}` (the value, cut to fit the column), `{label}` (the
   * source's label), `{server}` (its digits), `{n}` (the attempt). Default `{name}.{label}`
   * (`Aria.S2`, then `Aria.S2.2`); without `{n}`, later attempts add `.2`, `.3`...
   */
  readonly renameTemplate?: string;
}

/** A unique constraint of a table and its policy. */
export interface UniqueRule {
  readonly id: string;
  readonly unique: UniqueInfo;
  readonly policy: ConflictPolicy;
  /** For `rename`: the text column that gets the suffix, and its length. */
  readonly renameColumn?: string;
  readonly maxLength?: number | null;
  /** The rule's number in its table: its staging column is `snowkey_r<number>`. */
  readonly number: number;
}

/** One table as the merge handles it. */
export interface TablePlanInfo {
  readonly table: TableInfo;
  /** Its place in the copy order: its staging table is `snowkey_merge_stage_<number>`. */
  readonly number: number;
  readonly key: readonly string[];
  /** Columns copied, per source position (the source's non-generated columns the target has). */
  readonly columns: ReadonlyMap<number, readonly string[]>;
  /** Every column some source gives, as the target has it, in the target's order. */
  readonly staged: readonly ColumnInfo[];
  /** Per source position: the source's key columns (their types bound a resumed read). */
  readonly sourceKeys: ReadonlyMap<number, readonly ColumnInfo[]>;
  /** Per source position: key and foreign-key columns whose values must be checked as integers. */
  readonly integerChecks: ReadonlyMap<number, readonly ColumnInfo[]>;
  readonly rules: readonly UniqueRule[];
  readonly deferred: readonly ForeignKeyInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
  readonly overridingSystemValue: boolean;
}

/** The schema-level facts of a merge, read from the databases. */
export interface MergeSetup {
  readonly order: readonly string[];
  readonly tables: ReadonlyMap<string, TablePlanInfo>;
  /** Problems that stop the merge, drift not accepted included. */
  readonly problems: readonly string[];
  /** Every difference between the shards' schemas, accepted or not. */
  readonly drift: readonly (SchemaDrift & { readonly accepted: boolean })[];
  /** What a resumed merge must be given again: the sources, exclusions and accepted drift. */
  readonly fingerprint: string;
  /** What may change while nothing is written: policies, key collisions, the rename template. */
  readonly policies: string;
  readonly renameTemplate: string;
  readonly copy: CopyOrder;
  readonly schemas: { readonly target: SchemaInfo; readonly sources: readonly SchemaInfo[] };
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
  checkRenameTemplate(inputs.renameTemplate ?? DEFAULT_RENAME_TEMPLATE);
  if (inputs.acceptDrift !== undefined && !Array.isArray(inputs.acceptDrift)) {
    throw new InvalidArgumentError('acceptDrift', 'an array of drift ids (or "*")', inputs.acceptDrift);
  }
}

/** The name a policy uses for a unique constraint: `players.name`, `ranks.guild_id+name`. */
export function uniqueId(table: string, u: UniqueInfo): string {
  return `${table}.${u.columns.join('+')}`;
}

/**
 * Reads the target's and the sources' schemas and works out what the merge does per table, and
 * every reason it cannot run (drift between the shards included).
 */
export async function setUpMerge(inputs: MergeInputs): Promise<MergeSetup> {
  checkInputs(inputs);
  const target = await readSchema(inputs.target);
  const sources = await Promise.all(inputs.sources.map((s) => readSchema(s.db)));
  const exclude = new Set(inputs.exclude ?? []);
  const accept = new Set(inputs.acceptDrift ?? []);
  const template = inputs.renameTemplate ?? DEFAULT_RENAME_TEMPLATE;
  const policies = new Map(Object.entries(inputs.onConflict ?? {}));
  const problems: string[] = [];
  const targetTables = new Map(target.tables.map((t) => [t.name, t]));
  const label = (i: number) => inputs.sources[i]!.label;
  for (const [i, s] of sources.entries()) {
    if (s.tables.length === 0) {
      problems.push(
        `source ${label(i)} (${inputs.sources[i]!.db.name}) has no tables: a merge would leave it out (is it the right database?)`,
      );
    }
    for (const t of s.tables) {
      if (!targetTables.has(t.name) && !exclude.has(t.name)) {
        problems.push(`table ${t.name} of ${label(i)} is not in the target (create it, or exclude it)`);
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
  const drift = schemaDrift(
    included.map((t) => t.name),
    sources.map((schema, i) => ({ label: label(i), schema })),
  ).map((d) => ({ ...d, accepted: accept.has('*') || accept.has(d.id) }));
  for (const d of drift) {
    if (!d.accepted) problems.push(`schema drift ${d.id}: ${d.text} (accept it by its id, or fix the shard)`);
  }
  for (const a of accept) {
    if (a !== '*' && !drift.some((d) => d.id === a))
      problems.push(`acceptDrift names ${a}, which is no difference found`);
  }
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
    const sourceKeys = new Map<number, ColumnInfo[]>();
    const integerChecks = new Map<number, ColumnInfo[]>();
    const fkColumns = new Set(t.foreignKeys.flatMap((fk) => fk.columns));
    for (const [i, s] of sources.entries()) {
      const st = s.tables.find((x) => x.name === t.name);
      if (!st) continue;
      const cols = st.columns.filter((c) => !c.generated).map((c) => c.name);
      const missing = cols.filter((c) => !t.columns.some((x) => x.name === c && !x.generated));
      if (missing.length > 0) {
        problems.push(`${t.name} of ${label(i)} has columns the target lacks: ${missing.join(', ')}`);
      }
      const lacking = key.filter((c) => !cols.includes(c));
      if (lacking.length > 0)
        problems.push(`${t.name} of ${label(i)} lacks the key columns ${lacking.join(', ')}`);
      columns.set(
        i,
        t.columns.filter((c) => !c.generated && cols.includes(c.name)).map((c) => c.name),
      );
      sourceKeys.set(
        i,
        key.map((k) => st.columns.find((c) => c.name === k) ?? column(t, k)),
      );
      integerChecks.set(
        i,
        st.columns.filter(
          (c) =>
            (key.includes(c.name) || fkColumns.has(c.name)) &&
            t.columns.find((x) => x.name === c.name)?.integer,
        ),
      );
    }
    const rules: UniqueRule[] = [];
    for (const u of t.uniques) {
      if (u.columns.join() === key.join()) continue;
      const id = uniqueId(t.name, u);
      const policy = policies.get(id) ?? 'fail';
      policies.delete(id);
      const number = rules.length;
      if (policy !== 'rename') {
        rules.push({ id, unique: u, policy, number });
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
      const maxLength = column(t, texts[0]!).maxLength;
      for (const s of inputs.sources) {
        const room = renameRoom(template, s.label, 1, maxLength);
        if (room !== null && room < 1) {
          problems.push(
            `${id}: the rename template "${template}" leaves no room for the value in ${texts[0]} (${maxLength} characters) for ${s.label}`,
          );
        }
      }
      rules.push({ id, unique: u, policy, renameColumn: texts[0]!, maxLength, number });
    }
    const staged = t.columns.filter((c) => [...columns.values()].some((cols) => cols.includes(c.name)));
    tables.set(t.name, {
      table: t,
      number: 0,
      key,
      columns,
      staged,
      sourceKeys,
      integerChecks,
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
  const order = copy.order.filter((n) => tables.has(n));
  order.forEach((n, i) => {
    tables.set(n, { ...tables.get(n)!, number: i + 1 });
  });
  const fingerprint = JSON.stringify({
    sources: inputs.sources.map((s, i) => `${s.label}=${sources[i]!.dialect}:${s.db.name}`),
    exclude: [...exclude].sort(),
    acceptDrift: [...accept].sort(),
  });
  const policyPrint = JSON.stringify({
    onConflict: Object.fromEntries(Object.entries(inputs.onConflict ?? {}).sort()),
    keyCollisions: inputs.keyCollisions ?? 'fail',
    renameTemplate: template,
  });
  return {
    order,
    tables,
    problems,
    drift,
    fingerprint,
    policies: policyPrint,
    renameTemplate: template,
    copy,
    schemas: { target, sources },
  };
}
