import type { MergePlan, Verification } from '@snowkey/merge';
import Table from 'cli-table3';

const n = (x: number) => x.toLocaleString('en-US');

/** A borderless table: numbers right-aligned with thousands separators. */
export function table(head: string[], rows: (string | number)[][]): string {
  const t = new Table({
    head,
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const r of rows) {
    t.push(r.map((c) => (typeof c === 'number' ? { content: n(c), hAlign: 'right' as const } : c)));
  }
  return t.toString();
}

/** The plan as tables: rows and conflicts per table, node ids per source, then the problems. */
export function formatPlan(plan: MergePlan): string {
  const labels = Object.keys(plan.tables[0]?.rows ?? {});
  const out = [
    `tables in copy order: ${plan.order.join(', ')}`,
    `filled in by a second pass: ${plan.deferred.join(', ') || 'none'}`,
    table(
      ['table', ...labels, 'target now', 'key collisions', 'dangling'],
      plan.tables.map((t) => [
        t.table,
        ...labels.map((l) => t.rows[l] ?? 0),
        t.targetRows,
        t.keyCollisions,
        Object.values(t.dangling).reduce((a, b) => a + b, 0),
      ]),
    ),
  ];
  const conflicts = plan.tables.flatMap((t) => t.conflicts);
  if (conflicts.length > 0) {
    out.push(
      'unique values already held (per constraint and its policy):',
      table(
        ['constraint', 'policy', 'values held', 'for example'],
        conflicts.map((c) => [c.constraint, c.policy, c.count, c.examples[0] ?? '']),
      ),
    );
  }
  if (plan.nodeIds) {
    out.push(
      'node ids in the keys:',
      table(
        ['source', 'node ids', 'shared with'],
        plan.nodeIds.map((s) => [
          s.source,
          `${s.nodeIds.slice(0, 4).join(' ')}${s.distinct > 4 ? ` (+${s.distinct - 4})` : ''}`,
          s.sharedWith.join(', ') || '-',
        ]),
      ),
    );
  }
  out.push(
    plan.ok ? 'ok: the merge can run' : `the merge would not succeed:\n  - ${plan.problems.join('\n  - ')}`,
  );
  return `${out.join('\n')}\n`;
}

/** A verification as a table of rows and a verdict. */
export function formatVerification(v: Verification): string {
  const labels = [...new Set(v.tables.flatMap((t) => Object.keys(t.sourceRows)))];
  const rows = v.tables.map((t) => [
    t.table,
    ...labels.map((l) => t.sourceRows[l] ?? 0),
    t.expectedRows,
    t.targetRows,
    t.missing + t.different,
    t.leftOut,
  ]);
  const dangling = Object.values(v.dangling).reduce((a, b) => a + b, 0);
  return `${[
    table(['table', ...labels, 'expected', 'target', 'lost or changed', 'left out'], rows),
    `foreign keys checked: ${Object.keys(v.dangling).length}, dangling references: ${n(dangling)}`,
    v.ok
      ? 'verified: every source row is in the target exactly once, every foreign key resolves'
      : `VERIFY FAILED:\n  - ${v.problems.join('\n  - ')}`,
  ].join('\n')}\n`;
}
