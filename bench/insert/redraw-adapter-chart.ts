// Draws a `pnpm bench:insert` run's adapter chart (adapter-overhead.svg) again from the results.json
// it wrote, after a change to how the chart is drawn: the same figures, no new run. (An instruction
// count's chart is drawn again by `pnpm bench:insert:instructions:merge` from its results.)
//   pnpm bench:insert:redraw <dir>...
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { PathResult } from './adapter-overhead.js';
import { overheadChart, renderSvg } from './charts.js';

const program = new Command('redraw-adapter-chart')
  .description("draw a bench:insert run's adapter-overhead.svg again from its results.json")
  .argument('<dirs...>', 'directories a bench:insert run wrote (its --out)')
  .parse();

for (const dir of program.args) {
  const { overhead } = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    overhead?: PathResult[];
  };
  if (!overhead?.length)
    throw new Error(`${dir}/results.json holds no adapter results (a run with --only raw?)`);
  writeFileSync(join(dir, 'adapter-overhead.svg'), await renderSvg(overheadChart(overhead)));
  process.stderr.write(`wrote ${dir}/adapter-overhead.svg\n`);
}
