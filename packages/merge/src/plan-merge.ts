import { decode, type Layout } from '@snowkey/core';
import { countRows } from './bookkeeping.js';
import { type ConflictPolicy, type MergeInputs, setUpMerge } from './merge-setup.js';
import { column } from './schema.js';
import { canonical, encodeKey } from './values.js';
import { countDangling, pages } from './verification.js';

/**
 * What a merge would meet on one table.
 *
 * @example
 * const t: TablePlan = plan.tables[0]!;
 * t.conflicts; // [{ constraint: 'players.name', policy: 'rename', count: 57, examples: ['"Aria" of S2 (key [7]) is held by S1'] }]
 */
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

/**
 * The node ids found in one source's keys (decoded with the layout given to the plan).
 *
 * @example
 * const n: SourceNodeIds = { source: 'S2', nodeIds: ['serverId=2'], distinct: 1, sharedWith: [] };
 */
export interface SourceNodeIds {
  readonly source: string;
  /** Distinct node ids, as `field=value` (at most 20 listed). */
  readonly nodeIds: readonly string[];
  readonly distinct: number;
  /** Other sources whose keys carry one of these node ids too. */
  readonly sharedWith: readonly string[];
}

/**
 * A dry run of a merge: nothing is written.
 *
 * @example
 * const plan: MergePlan = await planMerge({ sources, target, layout: layouts.gameServer });
 * plan.ok; // false when the merge would stop or fail verification
 */
export interface MergePlan {
  /** True when the merge can run to the end and verify. */
  readonly ok: boolean;
  /** Why not: schema problems, conflicts under `fail`, key collisions. */
  readonly problems: readonly string[];
  /** Tables in copy order. */
  readonly order: readonly string[];
  /** Foreign keys written in a second pass (`table.columns`). */
  readonly deferred: readonly string[];
  readonly tables: readonly TablePlan[];
  /** With a layout: the node ids in each source's keys; null without one. */
  readonly nodeIds: readonly SourceNodeIds[] | null;
}

/**
 * Reads the sources and the target and reports what {@link runMerge} would do with the same
 * inputs: rows per table and source, key collisions, unique-constraint conflicts (e.g. two
 * players named "Aria") and what their policy does with them, foreign keys that dangle already in
 * a source, and, given the id `layout`, whether the shards' ids carry distinct node ids.
 *
 * @example
 * const plan = await planMerge({ sources, target, onConflict: { 'players.name': 'rename' }, layout: layouts.gameServer });
 * plan.tables.find((t) => t.table === 'players')!.conflicts[0]!.count; // 57
 */
export async function planMerge(inputs: MergeInputs & { readonly layout?: Layout }): Promise<MergePlan> {
  const setup = await setUpMerge(inputs);
  const problems = [...setup.problems];
  const tables: TablePlan[] = [];
  const nodes = inputs.sources.map(() => new Set<string>());
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    const uniques = info.rules.map((r) => r.unique.columns);
    const seenKeys = new Set<string>();
    const holders = uniques.map(() => new Map<string, string>());
    const read = [...new Set([...info.key, ...uniques.flat()])];
    const remember = (row: Record<string, unknown>, label: string) => {
      seenKeys.add(encodeKey(info.key.map((c) => row[c])));
      uniques.forEach((cols, i) => {
        const tuple = cols.map((c) => row[c]);
        if (tuple.every((v) => v !== null && v !== undefined)) holders[i]!.set(encodeKey(tuple), label);
      });
    };
    for await (const page of pages(inputs.target, name, read, info.key))
      for (const r of page) remember(r, 'the target');
    const rows: Record<string, number> = {};
    const counts = info.rules.map(() => ({ count: 0, examples: [] as string[] }));
    let keyCollisions = 0;
    const dangling: Record<string, number> = {};
    const integerKey = info.key.length === 1 && column(info.table, info.key[0]!).integer;
    for (const [position, s] of inputs.sources.entries()) {
      if (!info.columns.has(position)) continue;
      let n = 0;
      const mine: Record<string, unknown>[] = [];
      for await (const page of pages(s.db, name, read, info.key)) {
        n += page.length;
        for (const r of page) {
          const key = info.key.map((c) => r[c]);
          if (seenKeys.has(encodeKey(key))) keyCollisions++;
          uniques.forEach((cols, i) => {
            const tuple = cols.map((c) => r[c]);
            const holder = holders[i]!.get(encodeKey(tuple));
            if (holder === undefined) return;
            counts[i]!.count++;
            if (counts[i]!.examples.length < 3) {
              counts[i]!.examples.push(
                `${tuple.map((v) => JSON.stringify(canonical(v))).join(', ')} of ${s.label} (key [${key.map(String).join(', ')}]) is held by ${holder}`,
              );
            }
          });
          if (inputs.layout && integerKey) nodes[position]!.add(nodeOf(r[info.key[0]!], inputs.layout));
          mine.push(r);
        }
      }
      for (const r of mine) remember(r, s.label);
      rows[s.label] = n;
      const sourceFks = info.table.foreignKeys;
      for (const [fk, d] of Object.entries(await countDangling(s.db, sourceFks)))
        dangling[fk] = (dangling[fk] ?? 0) + d;
    }
    const conflicts = info.rules.map((r, i) => ({ constraint: r.id, policy: r.policy, ...counts[i]! }));
    tables.push({
      table: name,
      key: info.key,
      rows,
      targetRows: await countRows(inputs.target, name),
      keyCollisions,
      conflicts,
      dangling,
    });
    if (keyCollisions > 0) {
      problems.push(
        `${name}: ${keyCollisions} source keys are held by the target or an earlier source${(inputs.keyCollisions ?? 'fail') === 'fail' ? ' (the merge would stop at the first)' : ' (they would be left out, and the merge would fail verification)'}; re-key AUTO_INCREMENT shards first (snowkey rekey)`,
      );
    }
    for (const c of conflicts) {
      if (c.count > 0 && c.policy === 'fail') {
        problems.push(
          `${c.constraint}: ${c.count} values are held already and the policy is fail (choose rename or skip)`,
        );
      }
    }
    for (const [fk, d] of Object.entries(dangling)) {
      if (d > 0) problems.push(`${fk}: ${d} references in the sources resolve to no row there`);
    }
  }
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
  return {
    ok: problems.length === 0,
    problems,
    order: setup.order,
    deferred: setup.copy.deferred.map((fk) => `${fk.table}.${fk.columns.join('+')}`),
    tables,
    nodeIds,
  };
}

function nodeOf(id: unknown, layout: Layout): string {
  try {
    const parts = decode(BigInt(id as bigint), { layout }) as Record<string, unknown>;
    return layout.nodeFields.map((f) => `${f.name}=${String(parts[f.name])}`).join(',') || '(no node bits)';
  } catch {
    return '(not an id of this layout)';
  }
}
