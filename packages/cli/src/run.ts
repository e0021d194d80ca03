import { InvalidArgumentError, InvalidLayoutError } from '@snowkey/core';
import { Command, CommanderError } from 'commander';
import { CommandFailed } from './command-failed.js';
import { decodeCommand } from './commands/decode.js';
import { generateCommand } from './commands/generate.js';
import { layoutCommand } from './commands/layout.js';
import { leasesCommand } from './commands/leases.js';
import { mergeCommand } from './commands/merge.js';
import { rekeyCommand } from './commands/rekey.js';
import { type CliIo, processIo } from './io.js';
import { VERSION } from './version.js';

/**
 * Exit codes: 0 done, 1 a failure (a merge that did not verify, a conflict under `fail`, an
 * unexpected error), 2 bad usage (unknown layout, bad id, bad flag, a resume with other inputs).
 *
 * @example
 * if ((await run(['decode', 'x'])) === ExitCode.usage) console.error('fix the arguments');
 */
export const ExitCode = Object.freeze({ ok: 0, failure: 1, usage: 2 });

/**
 * Runs the `snowkey` command with `argv` (the arguments after the program name) and resolves to
 * its exit code. It never calls `process.exit`, so tests and other tools can run it in-process.
 *
 * @example
 * let out = '';
 * const code = await run(['decode', '175928847299117063', '--layout', 'discord'], {
 *   stdout: (s) => { out += s; },
 * });
 * // code 0; out includes "date       2016-04-30T11:18:25.796Z"
 */
export async function run(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const full: CliIo = { ...processIo(), ...io };
  const program = new Command('snowkey')
    .description('Generate, decode and inspect Snowflake-style 64-bit ids; merge and re-key databases.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: full.stdout, writeErr: full.stderr })
    .showHelpAfterError('(run with --help for usage)');
  const commands = [
    generateCommand(full),
    decodeCommand(full),
    layoutCommand(full),
    mergeCommand(full),
    rekeyCommand(full),
    leasesCommand(full),
  ];
  for (const command of commands) {
    // addCommand does not pass settings down as .command() does: exit override and output included.
    program.addCommand(command.copyInheritedSettings(program));
    for (const sub of command.commands) sub.copyInheritedSettings(command);
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommandFailed) return err.code;
    if (err instanceof CommanderError) {
      // commander has printed its message already; help and --version exit with 0.
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (isUsageError(err)) {
      full.stderr(`error: ${err.message}\n`);
      return ExitCode.usage;
    }
    full.stderr(`error: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`);
    return ExitCode.failure;
  }
}

/** Core's argument, id and layout errors are the user's input, not a failure of the tool. */
function isUsageError(err: unknown): err is Error {
  return (
    err instanceof InvalidArgumentError ||
    err instanceof InvalidLayoutError ||
    (err instanceof Error &&
      [
        'DatabaseNotFoundError',
        'InvalidArgumentError',
        'InvalidIdError',
        'InvalidLayoutError',
        'MergeInputsChangedError',
        'MissingDriverError',
      ].includes(err.name))
  );
}
