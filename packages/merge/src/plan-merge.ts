import type { Layout } from '@snowkey/core';
import { countRows } from './bookkeeping.js';
import type { MergeConflict } from './errors.js';
import { analyzeTable } from './merge-analysis.js';
import { type ConflictPolicy, type MergeInputs, setUpMerge } from './merge-setup.js';
import { stageSources } from './merge-stage.js';
import { type TableDecisions, WorkTables } from './merge-tables.js';
import { column } from './schema.js';
import type { SchemaDrift } from './schema-drift.js';
import { quote } from './sql.js';
import { canonical } from './values.js';
import { countDangling } from './verification.js';

/** What a merge would meet on one table. */
export interface TablePlan {
  readonly table: string;
  readonly key: readonly string[];
  /** Rows per source, by label. */
  readonly rows: Readonly<Record<string, number>>;
  /** Rows the target holds already. */
  readonly targetRows: number;
  /** Source keys already held by the target or an earlier source. */
  readonly keyCollisions: number;
  readonly conflicts: readonly {
    readonly constraint: string;
    readonly policy: ConflictPolicy;
    readonly count: number;
    readonly examples: readonly string[];
  }[];
  /** Foreign-key values of the sources that resolve to no row there, per `table.columns`. */
  readonly dangling: Readonly<Record<string, number>>;
}

/** The node ids found in one source's keys (decoded with the layout given to the plan). */
export interface SourceNodeIds {
  readonly source: string;
  /** Distinct node ids, as `field=value` (at most 20 listed). */
  readonly nodeIds: readonly string[];
  readonly distinct: number;
  /** Other sources whose keys carry one of these node ids too. */
  readonly sharedWith: readonly string[];
}

/**
 * A dry run of a merge: nothing is written (the sources are read into temporary tables of the
 * target, which go with the session).
 */
export interface MergePlan {
  /** True when the merge can run to the end and verify. */
  readonly ok: boolean;
  /** Why not: schema problems and drift, conflicts under `fail`, key collisions. */
  readonly problems: readonly string[];
  /** Differences between the shards' schemas, and whether each is accepted. */
  readonly drift: readonly (SchemaDrift & { readonly accepted: boolean })[];
  /** Tables in copy order. */
  readonly order: readonly string[];
  /** Foreign keys written in a second pass (`table.columns`). */
  readonly deferred: readonly string[];
  readonly tables: readonly TablePlan[];
  /** With a layout: the node ids in each source's keys; null without one. */
  readonly nodeIds: readonly SourceNodeIds[] | null;
}

const example = (c: MergeConflict, held: string) =>
  `${c.value.map((v) => JSON.stringify(canonical(v))).join(', ')} of ${c.source} (key [${c.key.map(String).join(', ')}]) is held ${held}`;

/**
 * What {@link runMerge} would do with the same inputs (drift, rows, collisions, conflicts and their
 * policy, dangling keys), from its checks on temporary tables; writes nothing.
 *
 * @example
 * const plan = await planMerge({ sources, target, onConflict: { 'players.name': 'rename' }, layout: layouts.gameServer });
 * plan.tables.find((t) => t.table === 'players')!.conflicts[0]!.count; // 57
 */
export async function planMerge(inputs: MergeInputs & { readonly layout?: Layout }): Promise<MergePlan> {
  const setup = await setUpMerge(inputs);
  const problems = [...setup.problems];
  const base = {
    drift: setup.drift,
    order: setup.order,
    deferred: setup.copy.deferred.map((fk) => `${fk.table}.${fk.columns.join('+')}`),
  };
  const labels = inputs.sources.map((s) => s.label);
  const nodes = inputs.sources.map(() => new Set<string>());
  const tables: TablePlan[] = await inputs.target.session(async (session) => {
    const names = new WorkTables('snowkey_plan_', true);
    const out: TablePlan[] = [];
    await stageSources(session, inputs, setup, names, 1_000_000, null);
    const decided = new Map<string, TableDecisions>();
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      const analysis = await analyzeTable(session, setup, info, names, decided, {
        labels,
        keyCollisions: inputs.keyCollisions ?? 'fail',
        records: false,
      });
      decided.set(name, analysis.decisions);
      const rows: Record<string, number> = {};
      for (const [p, l] of labels.entries())
        if (info.columns.has(p)) rows[l] = analysis.decisions.bounds[p]?.[2] ?? 0;
      const dangling: Record<string, number> = {};
      for (const [p, s] of inputs.sources.entries()) {
        if (!info.columns.has(p)) continue;
        for (const [fk, d] of Object.entries(await countDangling(s.db, info.table.foreignKeys))) {
          dangling[fk] = (dangling[fk] ?? 0) + d;
        }
      }
      const [pk, ...rules] = analysis.findings;
      if (inputs.layout && info.key.length === 1 && column(info.table, info.key[0]!).integer) {
        const fields = inputs.layout.nodeFields;
        const d = session.dialect;
        const div = d === 'mysql' ? 'DIV' : '/';
        const k = quote(d, info.key[0]!);
        for (const r of await session.query<Record<string, unknown>>(
          `SELECT DISTINCT snowkey_src AS s${fields.map((f, i) => `, ((${k} ${div} ${2n ** BigInt(f.shift)}) % ${2 ** f.bits}) AS f${i}`).join('')} FROM ${quote(d, names.stage(info.number))} LIMIT 1000`,
        )) {
          nodes[Number(r.s)]!.add(
            fields.map((f, i) => `${f.name}=${String(r[`f${i}`])}`).join(',') || '(no node bits)',
          );
        }
      }
      out.push({
        table: name,
        key: info.key,
        rows,
        targetRows: await countRows(session, name),
        keyCollisions: pk!.count,
        conflicts: rules.map((f) => ({
          constraint: f.id,
          policy: f.policy as ConflictPolicy,
          count: f.count,
          examples: f.examples.map((e) => example(e, 'already')),
        })),
        dangling,
      });
      if (pk!.count > 0) {
        problems.push(
          `${name}: ${pk!.count} source keys are held by the target or an earlier source${(inputs.keyCollisions ?? 'fail') === 'fail' ? ' (the merge would refuse to start)' : ' (they would be left out, and the merge would fail verification)'}; re-key AUTO_INCREMENT shards first (snowkey rekey)`,
        );
      }
      for (const c of rules) {
        if (c.count > 0 && c.policy === 'fail') {
          problems.push(
            `${c.id}: ${c.count} values are held already and the policy is fail (choose rename or skip)`,
          );
        }
      }
      for (const [fk, d] of Object.entries(dangling)) {
        if (d > 0) problems.push(`${fk}: ${d} references in the sources resolve to no row there`);
      }
    }
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      for (const t of [
        names.stage(info.number),
        names.out(info.number),
        ...info.rules.map((r) => names.renamed(info.number, r.number)),
      ]) {
        await names.drop(session, t);
      }
    }
    return out;
  });
  let nodeIds: SourceNodeIds[] | null = null;
  if (inputs.layout) {
    nodeIds = inputs.sources.map((s, i) => {
      const sharedWith = inputs.sources
        .filter((_, j) => j !== i && [...nodes[i]!].some((n) => nodes[j]!.has(n)))
        .map((o) => o.label);
      return {
        source: s.label,
        nodeIds: [...nodes[i]!].sort().slice(0, 20),
        distinct: nodes[i]!.size,
        sharedWith,
      };
    });
    for (const n of nodeIds) {
      if (n.sharedWith.length > 0) {
        problems.push(
          `${n.source}'s ids carry node ids that ${n.sharedWith.join(', ')} use too: ids from different servers can repeat`,
        );
      }
    }
  }
  return { ok: problems.length === 0, problems, ...base, tables, nodeIds };
}
