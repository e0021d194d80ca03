import { InvalidArgumentError, idReplacer, Snowflake } from '@snowkey/core';
import { Command } from 'commander';
import { integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';
import { addNodeFlags, nodeOptions } from '../node-flags.js';

/** Enough for any script; more is a job for the library, not a terminal. */
const MAX_COUNT = 1_000_000;

/** `snowkey generate [-n N] [--layout L] [--worker-id N ...]`: new ids, one per line. */
export function generateCommand(io: CliIo): Command {
  const command = new Command('generate')
    .description('generate new ids, one per line')
    .option('-n, --count <n>', `how many ids (1..${MAX_COUNT})`, '1')
    .option('--json', 'print a JSON array of decimal strings')
    .option('--sequence-overflow <mode>', 'wait (default) or borrow');
  addLayoutFlags(command, true);
  addNodeFlags(command);
  return command.action((flags: LayoutFlags & Record<string, unknown>) => {
    const layout = resolveLayout(flags);
    const expected = `an integer in 1..${MAX_COUNT}`;
    const count = integerFlag('--count', String(flags.count), expected);
    if (count < 1 || count > MAX_COUNT) throw new InvalidArgumentError('--count', expected, flags.count);
    const overflow = flags.sequenceOverflow ?? 'wait';
    if (overflow !== 'wait' && overflow !== 'borrow') {
      throw new InvalidArgumentError('--sequence-overflow', 'wait or borrow', overflow);
    }
    const gen = new Snowflake({
      layout,
      ...nodeOptions(layout, flags, io.env),
      ...(io.clock ? { clock: io.clock } : {}),
      sequenceOverflow: overflow,
    });
    const ids = gen.nextIds(count);
    io.stdout(flags.json ? `${JSON.stringify(ids, idReplacer)}\n` : `${ids.join('\n')}\n`);
  });
}
