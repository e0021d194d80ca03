import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instructionsChart, renderSvg } from './charts.js';
import { instructionsGoal, instructionsTable, type PathInstructions } from './report.js';

/**
 * Writes an instruction count's report (`heading`, the table, the goal's verdict) to stdout and
 * to `out`, with `results.json` (`record` and the results) and the chart.
 */
export async function writeInstructionsOutput(
  out: string,
  heading: readonly string[],
  results: readonly PathInstructions[],
  record: object,
): Promise<void> {
  const report = `${[
    ...heading,
    instructionsTable(results),
    ['```', ...instructionsGoal(results), '```'].join('\n'),
  ].join('\n\n')}\n`;
  process.stdout.write(report);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.md'), report);
  writeFileSync(join(out, 'results.json'), `${JSON.stringify({ ...record, results }, null, 2)}\n`);
  writeFileSync(join(out, 'adapter-instructions.svg'), await renderSvg(instructionsChart(results)));
}
