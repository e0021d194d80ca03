// What snowkey's own Knex code costs per row, with no database and no Knex, counted in machine
// instructions (valgrind's callgrind): the helper's fill of 1000-row inserts, copying the rows and
// in place, against building the same rows with ids set by hand from `nextIds`. Each variant runs
// in processes of 50 and of 150 calls, and the difference of their totals over the 100 calls
// between leaves out start-up and compiling. V8 runs in its predictable mode with fixed seeds, and
// with a young generation large enough that no collection happens, so a count repeats exactly.
// Every call also reads each row's keys and values, as Knex does. Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/knex-fill-instructions.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { markdownTable } from 'markdown-table';

const ROWS = 1000;
const CALLS = [50, 150] as const;
const VARIANTS = {
  'rows built with ids (hand-set)': 'hand',
  'rows without ids, filled as copies': 'copies',
  'rows without ids, filled in place (fillInPlace)': 'in-place',
} as const;
type Variant = (typeof VARIANTS)[keyof typeof VARIANTS];

// The child as one bundle of snowkey's source, as an application's bundler would ship it: no
// loader in the process counted, and the same code whatever the variant.
const dir = mkdtempSync(join(tmpdir(), 'snowkey-knex-fill-'));
const bundle = join(dir, 'child.mjs');
await build({
  entryPoints: [new URL('./knex-fill-child.ts', import.meta.url).pathname],
  bundle: true,
  platform: 'node',
  format: 'esm',
  conditions: ['dev-source'],
  outfile: bundle,
  logLevel: 'warning',
});

/** Instructions of one child process, all of it. */
function instructions(variant: Variant, calls: number): number {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      '--random-seed=1',
      '--hash-seed=1',
      '--min-semi-space-size=512',
      '--max-semi-space-size=512',
      '--trace-gc',
      bundle,
      variant,
      String(calls),
      String(ROWS),
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`valgrind exited with ${run.status}: ${run.stderr.slice(-2000)}`);
  if (/Scavenge|Mark-Compact|Mark-Sweep/.test(run.stdout))
    throw new Error('a collection ran: raise the semi-space');
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (!collected) throw new Error(`no instruction count in valgrind's output: ${run.stderr.slice(-2000)}`);
  return Number(collected[1]);
}

try {
  const perRow = Object.fromEntries(
    Object.entries(VARIANTS).map(([name, variant]) => {
      const [few, many] = CALLS.map((calls) => instructions(variant, calls)) as [number, number];
      return [name, (many - few) / ((CALLS[1] - CALLS[0]) * ROWS)];
    }),
  );
  const base = perRow['rows built with ids (hand-set)']!;
  console.log(
    `snowkey's Knex fill alone, ids included: instructions per row over ${CALLS[1] - CALLS[0]} calls of ${ROWS} rows\n`,
  );
  console.log(
    markdownTable(
      [
        ['rows', 'instructions per row', 'vs hand-set'],
        ...Object.entries(perRow).map(([name, n]) => [
          name,
          n.toFixed(0),
          name === 'rows built with ids (hand-set)' ? '' : `${n >= base ? '+' : ''}${(n - base).toFixed(0)}`,
        ]),
      ],
      { align: ['l', 'r', 'r'] },
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
