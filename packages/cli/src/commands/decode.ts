import { type DecodedId, decode, idReplacer, type Layout } from '@snowkey/core';
import { Command } from 'commander';
import type { CliIo } from '../io.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';

/** `snowkey decode <id...> [--layout L] [--json]`: the parts of each id. */
export function decodeCommand(io: CliIo): Command {
  const command = new Command('decode')
    .description('decode ids into their date, node fields and sequence')
    .argument('<id...>', 'ids as decimal digits')
    .option('--json', 'print a JSON array; ids as decimal strings');
  addLayoutFlags(command, true);
  return command.action((ids: string[], flags: LayoutFlags & { json?: boolean }) => {
    const layout = resolveLayout(flags);
    // Every id is checked before anything is printed, so a bad one never leaves half an answer.
    const decoded = ids.map((id) => ordered(decode(id, { layout }), layout));
    if (flags.json) {
      io.stdout(`${JSON.stringify(decoded, idReplacer, 2)}\n`);
      return;
    }
    const blocks = decoded.map((d) => {
      const width = Math.max(...Object.keys(d).map((k) => k.length));
      return Object.entries(d)
        .map(([k, v]) => `${k.padEnd(width)}  ${v instanceof Date ? v.toISOString() : String(v)}`)
        .join('\n');
    });
    io.stdout(`${blocks.join('\n\n')}\n`);
  });
}

/** id, date, timestamp, then the node fields and the sequence in the order of their bits. */
function ordered(d: DecodedId, layout: Layout): Record<string, unknown> {
  const out: Record<string, unknown> = { id: d.id, date: d.date, timestamp: d.timestamp };
  if (layout.order === 'sequence-node') out.sequence = d.sequence;
  for (const f of layout.nodeFields) out[f.name] = d[f.name];
  out.sequence = d.sequence;
  return out;
}
