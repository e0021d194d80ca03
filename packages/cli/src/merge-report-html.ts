import { writeFile } from 'node:fs/promises';
import type { MergeInputs, MergeRunResult, Verification } from '@snowkey/merge';

const esc = (s: unknown) =>
  String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
const n = (x: number) => x.toLocaleString('en-US');

function table(id: string, head: string[], rows: { cells: (string | number)[]; attrs?: string }[]): string {
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr${r.attrs ?? ''}>${r.cells
          .map((c) =>
            typeof c === 'number' ? `<td class="n" data-value="${c}">${n(c)}</td>` : `<td>${esc(c)}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

/** Rows per table and shard as a stacked bar chart: a Vega-Lite spec rendered to SVG, no script in the page. */
async function chart(result: MergeRunResult): Promise<string> {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Rows copied per table and shard',
    data: { values: result.tables.map((t) => ({ table: t.table, shard: t.source, rows: t.copied })) },
    width: 520,
    height: { step: 22 },
    mark: 'bar',
    encoding: {
      y: { field: 'table', type: 'nominal', sort: null, title: null },
      x: { field: 'rows', type: 'quantitative', title: 'rows copied' },
      color: { field: 'shard', type: 'nominal', title: 'shard' },
      tooltip: [{ field: 'table' }, { field: 'shard' }, { field: 'rows', format: ',' }],
    },
  } as const;
  const view = new vega.View(vega.parse(vl.compile(spec as never).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Writes the HTML report of a `merge run` to `file`: totals, rows per table and shard, every
 * constraint's conflicts and what its policy did with them, timings per phase, the verification,
 * and a chart. One self-contained page to sign the merge off with.
 */
export async function writeMergeReport(
  file: string,
  run: { inputs: MergeInputs; result: MergeRunResult; verification: Verification | null; verifyMs: number },
): Promise<void> {
  const { inputs, result, verification } = run;
  const t = result.totals;
  const resolution = (policy: string, count: number) =>
    count === 0
      ? 'none met'
      : policy === 'rename'
        ? 'renamed (see the renames export)'
        : policy === 'skip'
          ? 'left out; references point at the row holding the value'
          : policy === 'record'
            ? 'left out and recorded (the merge fails verification)'
            : 'refused the merge';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>snowkey merge report: ${esc(inputs.target.name)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.75rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1a7f37; } .bad { color: #cf222e; }
</style></head><body>
<h1>Merge into ${esc(inputs.target.name)}</h1>
<p id="summary" data-copied="${t.copied}" data-renames="${t.renames}" data-skipped="${t.skipped}" data-collisions="${t.collisions}">
${n(t.copied)} rows copied from ${inputs.sources.length} shards (${inputs.sources.map((s) => `${esc(s.label)} = ${esc(s.db.name)}`).join(', ')}):
${n(t.renames)} values renamed, ${n(t.skipped)} rows skipped, ${n(t.collisions)} key collisions.
${result.complete ? 'The merge is complete.' : '<strong class="bad">The merge is not complete: run it again to go on.</strong>'}</p>
<h2>Rows per table and shard</h2>
${table(
  'rows',
  ['table', 'shard', 'rows read', 'copied', 'skipped', 'key collisions', 'renamed'],
  result.tables.map((r) => ({
    cells: [r.table, r.source, r.rows, r.copied, r.skipped, r.collisions, r.renames],
    attrs: ` data-table="${esc(r.table)}" data-shard="${esc(r.source)}"`,
  })),
)}
<figure id="chart">${await chart(result)}</figure>
<h2>Conflicts and how they were resolved</h2>
${table(
  'conflicts',
  ['constraint', 'policy', 'rows', 'resolution', 'for example'],
  result.conflicts.map((c) => ({
    cells: [
      c.id,
      c.policy,
      c.count,
      resolution(c.policy, c.count),
      c.examples
        .map(
          (e) =>
            `${e.value.map((v) => JSON.stringify(String(v))).join(', ')} from ${e.source} (key ${e.key.map(String).join(', ')})`,
        )
        .join('; '),
    ],
    attrs: ` data-constraint="${esc(c.id)}"`,
  })),
)}
<h2>Timings (this run)</h2>
${table(
  'timings',
  ['phase', 'seconds'],
  [
    ...Object.entries(result.phases).map(([phase, ms]) => ({ cells: [phase, (ms / 1000).toFixed(1)] })),
    ...(verification ? [{ cells: ['verify', (run.verifyMs / 1000).toFixed(1)] }] : []),
    { cells: ['whole run', (result.elapsedMs / 1000).toFixed(1)] },
  ],
)}
<h2>Verification</h2>
${
  verification === null
    ? '<p id="verification">Not verified in this run (run <code>snowkey merge verify</code>).</p>'
    : `<p id="verification" class="${verification.ok ? 'ok' : 'bad'}" data-ok="${verification.ok}">${
        verification.ok
          ? 'Verified: every source row is in the target exactly once, every foreign key resolves.'
          : `Verification failed:<br>${verification.problems.map(esc).join('<br>')}`
      }</p>
${table(
  'verified',
  ['table', 'expected rows', 'rows in the target', 'missing', 'different', 'left out'],
  verification.tables.map((v) => ({
    cells: [v.table, v.expectedRows, v.targetRows, v.missing, v.different, v.leftOut],
    attrs: ` data-table="${esc(v.table)}"`,
  })),
)}`
}
</body></html>
`;
  await writeFile(file, html);
}
