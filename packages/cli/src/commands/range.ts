import { idRangeForTime, idReplacer } from '@snowkey/core';
import { Command } from 'commander';
import { instantFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';

/** `snowkey range <from> <to> [--layout L] [--json]`: the ids issued from `from` to `to`, both inclusive. */
export function rangeCommand(io: CliIo): Command {
  const command = new Command('range')
    .description('the ids issued in a time range, both ends inclusive, for WHERE id BETWEEN')
    .argument('<from>', 'the first instant: an ISO date or ms since 1970')
    .argument('<to>', 'the last instant, included: an ISO date or ms since 1970')
    .option('--json', 'print { "minId", "maxId" } with the ids as decimal strings');
  addLayoutFlags(command, true);
  return command.action((from: string, to: string, flags: LayoutFlags & { json?: boolean }) => {
    const layout = resolveLayout(flags);
    const range = idRangeForTime(instantFlag('<from>', from), instantFlag('<to>', to), { layout });
    if (flags.json) {
      io.stdout(`${JSON.stringify(range, idReplacer)}\n`);
      return;
    }
    io.stdout(
      `minId  ${range.minId}\nmaxId  ${range.maxId}\nsql    WHERE id BETWEEN ${range.minId} AND ${range.maxId}\n`,
    );
  });
}
