import { Command, CommanderError } from 'commander';
import { CommandFailed } from './command-failed.js';
import { adoptCommand } from './commands/adopt.js';
import { decodeCommand } from './commands/decode.js';
import { generateCommand } from './commands/generate.js';
import { layoutCommand } from './commands/layout.js';
import { leasesCommand } from './commands/leases.js';
import { mergeCommand } from './commands/merge.js';
import { rangeCommand } from './commands/range.js';
import { rekeyCommand } from './commands/rekey.js';
import { sqlCommand } from './commands/sql.js';
import { ExitCode, exitStatusOf } from './exit-status.js';
import { type CliIo, processIo } from './io.js';
import { VERSION } from './version.js';

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
    rangeCommand(full),
    sqlCommand(full),
    adoptCommand(full),
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
    if (err instanceof CommandFailed) return err.exitStatus;
    if (err instanceof CommanderError) {
      // commander has printed its message already; help and --version exit with 0.
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    const status = exitStatusOf(err);
    full.stderr(
      status === ExitCode.usage
        ? `error: ${(err as Error).message}\n`
        : `error: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`,
    );
    return status;
  }
}
