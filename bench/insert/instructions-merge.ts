// Joins the results of several `pnpm bench:insert:instructions` runs into one report, table and
// chart: a run over every adapter and database takes hours under valgrind, so the servers are
// counted a few adapters at a time. Each run's command is kept; where two runs counted the same
// database, adapter and write path, the later one given is kept.
//   pnpm bench:insert:instructions:merge --out <dir> [--dialects postgres,mysql] <results.json>...
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { ADAPTER_NAMES, loadAdapterBench } from './adapters/index.js';
import { BENCH_DIALECTS } from './bench-database.js';
import { listOf } from './cli-options.js';
import { writeInstructionsOutput } from './instructions-output.js';
import type { PathInstructions } from './report.js';

const program = new Command('bench:insert:instructions:merge')
  .description('join the results.json of several instruction-count runs into one report and chart')
  .requiredOption('--out <dir>', 'where report.md, results.json and the chart go')
  .option('--dialects <list>', 'keep only these databases: postgres,mysql,sqlite', listOf(BENCH_DIALECTS), [
    ...BENCH_DIALECTS,
  ])
  .argument('<results...>', 'results.json files written by bench:insert:instructions, in order')
  .parse();
const { out, dialects } = program.opts<{ out: string; dialects: string[] }>();
const files = program.args;

interface RunResults {
  command: string;
  started: string;
  results: PathInstructions[];
}

const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as RunResults);
const byPath = new Map<string, PathInstructions>();
for (const run of runs) {
  for (const r of run.results) byPath.set(`${r.dialect}\u0000${r.adapter}\u0000${r.path}`, r);
}
// Databases and adapters in the bench's order, whichever run counted them; an adapter's paths as its
// run listed them. A label no adapter has now (a run from before a rename) goes last, in run order.
const labels: string[] = [];
for (const name of ADAPTER_NAMES) labels.push((await loadAdapterBench(name)).name);
const rank = (r: PathInstructions) => {
  const at = labels.indexOf(r.adapter);
  return at === -1 ? labels.length : at;
};
const results = BENCH_DIALECTS.filter((d) => dialects.includes(d)).flatMap((dialect) =>
  [...byPath.values()].filter((r) => r.dialect === dialect).sort((a, b) => rank(a) - rank(b)),
);
const commands = runs.map((run) => ({ command: run.command, started: run.started }));

await writeInstructionsOutput(
  out,
  [
    'Commands, joined in this order (a later run replaces an earlier one on the same path):',
    commands.map((c) => `- \`${c.command}\` (started ${c.started})`).join('\n'),
    '### Instructions per row, one process per adapter and variant',
  ],
  results,
  { commands },
);
process.stderr.write(`wrote ${out}/report.md, results.json and adapter-instructions.svg\n`);
