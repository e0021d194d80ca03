import type { Layout } from '@snowkey/core';
import { Command } from 'commander';
import { renderBitDiagram } from '../bit-diagram.js';
import type { CliIo } from '../io.js';
import { type LayoutFacts, layoutFacts } from '../layout-facts.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';

/** `snowkey layout [L | --timestamp-bits ... --node name=bits ... --sequence-bits ...]`. */
export function layoutCommand(io: CliIo): Command {
  const command = new Command('layout')
    .description('show a layout: bit diagram, capacity, and the dates it runs out')
    .argument('[name]', 'a preset layout (default snowkey), or none with custom widths')
    .option('--json', 'print the facts as JSON');
  addLayoutFlags(command, false);
  return command.action((name: string | undefined, flags: LayoutFlags & { json?: boolean }) => {
    const layout = resolveLayout({ ...flags, layout: name });
    const facts = layoutFacts(layout);
    if (flags.json) {
      io.stdout(`${JSON.stringify({ ...facts, diagram: renderBitDiagram(layout).split('\n') }, null, 2)}\n`);
      return;
    }
    io.stdout(`${describe(layout, facts)}\n`);
  });
}

const count = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Dates beyond JavaScript's Date range (year 275760) cannot be printed as ISO strings. */
const when = (ms: number | null, never: string) =>
  ms === null ? never : Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${ms} ms since 1970`;

function describe(layout: Layout, f: LayoutFacts): string {
  const nodes = layout.nodeFields.map((n) => `${n.name} 0..${n.max}`).join(', ') || 'no node bits';
  const sign =
    f.totalBits < 64
      ? `${f.totalBits} bits, the sign bit stays 0: fits a signed BIGINT`
      : '64 bits: ids pass 2^63-1, so columns must be BIGINT UNSIGNED (MySQL) or NUMERIC(20)';
  const rows: Array<[string, string]> = [
    ['epoch', `${when(f.epoch, '')} (${f.epoch})`],
    ['time unit', `${f.timeUnitMs} ms`],
    ['ids per ms', `${count(f.idsPerMsPerNode)} per node (${count(f.idsPerSecondPerNode)} per second)`],
    ['nodes', `${count(f.nodeCount)} (${nodes})`],
    ['range', `${f.years.toFixed(1)} years`],
    ['runs out', when(f.endsAt, '')],
    ['passes 2^53', `${when(f.passes2pow53At, 'never')} (from then on ids are not exact as JS Numbers)`],
    [
      'passes 2^63-1',
      `${when(f.passes2pow63At, 'never')}${f.passes2pow63At === null ? '' : ' (signed BIGINT overflows)'}`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `layout ${layout.name}: ${sign}`,
    '',
    renderBitDiagram(layout),
    '',
    ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
  ].join('\n');
}
