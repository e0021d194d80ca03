import { InvalidArgumentError, type Layout } from '@snowkey/core';
import { type RekeyOptions, resetRekey, runRekey, verifyRekey } from '@snowkey/merge';
import { Command } from 'commander';
import { CommandFailed } from '../command-failed.js';
import { collect, epochFlag, integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { presetLayout } from '../layout-flags.js';
import { closeAll, openAll } from '../merge-flags.js';
import { formatVerification } from '../merge-report.js';
import { addNodeFlags, nodeOptions } from '../node-flags.js';
import { progressDisplay } from '../progress-display.js';
import { exportToFile } from './merge.js';

type RekeyFlags = {
  source: string;
  target: string;
  layout: string;
  exclude: string[];
} & Record<string, unknown>;

function addRekeyFlags(command: Command): Command {
  command
    .requiredOption('--source <url>', 'the shard (only read; it must exist)')
    .requiredOption(
      '--target <url>',
      'the re-keyed copy: the same tables, empty, keys BIGINT (it must exist)',
    )
    .option('--layout <name>', 'the layout your generator will use (default snowkey)', 'snowkey')
    .option('--exclude <table>', 'a table not to copy (repeat)', collect, []);
  return addNodeFlags(command);
}

/** Opens the shard (read-only) and the target, runs `body` with the rekey's options, closes them. */
async function withOptions<T>(
  io: CliIo,
  flags: RekeyFlags,
  body: (options: RekeyOptions, layout: Layout) => Promise<T>,
): Promise<T> {
  const layout = presetLayout(flags.layout);
  const node = nodeOptions(layout, flags, io.env);
  if ('nodeId' in node) {
    throw new InvalidArgumentError(
      '--node-id',
      `the node fields of layout ${layout.name} by name (e.g. --server-id)`,
      node.nodeId,
    );
  }
  const [source, target] = await openAll([
    { url: flags.source, readonly: true },
    { url: flags.target, readonly: false },
  ]);
  try {
    return await body({ source: source!, target: target!, layout, node, exclude: flags.exclude }, layout);
  } finally {
    await closeAll([source!, target!]);
  }
}

/** `snowkey rekey [run]|verify|reset|export`: an AUTO_INCREMENT shard copied with snowkey ids of its server. */
export function rekeyCommand(io: CliIo): Command {
  const rekey = new Command('rekey').description(
    "copy an AUTO_INCREMENT/serial shard with snowkey ids (the server's node id inside), every foreign key rewritten; resumable, verified",
  );
  const run = addRekeyFlags(new Command('run'))
    .description(
      'stage the shard, assign the new ids, check every reference, copy; then verify (the default)',
    )
    .option('--batch <n>', 'rows per chunk (1..10000000)', '100000')
    .option(
      '--at <ISO|ms>',
      'date the new ids before this instant instead of now (a rehearsal and the real run then agree); not later than now',
    )
    .option('--no-verify', 'skip the verification (re-reads every row)')
    .option('--export <file>', 'write every old id and its new id to a .csv or .json file')
    .action(async (flags: RekeyFlags & { batch: string; verify: boolean; export?: string }) => {
      const batchSize = integerFlag('--batch', flags.batch, 'an integer in 1..10000000');
      const now = (io.clock ?? Date.now)();
      const at = flags.at === undefined ? now : epochFlag(String(flags.at));
      if (at > now)
        throw new InvalidArgumentError(
          '--at',
          `an instant not later than now (${new Date(now).toISOString()})`,
          flags.at,
        );
      await withOptions(io, flags, async (options) => {
        const progress = progressDisplay(io);
        const result = await runRekey({
          ...options,
          batchSize,
          clock: () => at,
          onProgress: progress.onProgress,
        }).finally(progress.stop);
        const rate = result.rowsCopied > 0 ? Math.round((result.rowsCopied * 1000) / result.elapsedMs) : 0;
        io.stdout(
          `re-keyed: ${result.totals.rowsCopied.toLocaleString('en-US')} rows copied, ${result.totals.rekeyed.toLocaleString('en-US')} with new ids (this run: ${result.rowsCopied.toLocaleString('en-US')} rows in ${(result.elapsedMs / 1000).toFixed(1)} s, ${rate.toLocaleString('en-US')} rows/s); old -> new ids in snowkey_rekey_map\n`,
        );
        if (flags.export) {
          const n = await exportToFile(options.target, 'rekey', flags.export);
          io.stdout(`exported: ${n.toLocaleString('en-US')} old -> new ids to ${flags.export}\n`);
        }
        if (!flags.verify) return;
        const v = await verifyRekey(options);
        io.stdout(formatVerification(v));
        if (!v.ok) throw new CommandFailed(1);
      });
    });
  const verify = addRekeyFlags(new Command('verify'))
    .description('re-read every row of the shard and check the rekey by SQL; writes nothing')
    .action(async (flags: RekeyFlags) => {
      await withOptions(io, flags, async (options) => {
        const v = await verifyRekey(options);
        io.stdout(formatVerification(v));
        if (!v.ok) throw new CommandFailed(1);
      });
    });
  const reset = addRekeyFlags(new Command('reset'))
    .description(
      'undo a rekey on its target: delete every row of the re-keyed tables, drop its snowkey_rekey_* tables',
    )
    .requiredOption('--yes', 'confirm: every row of the re-keyed tables in the target is deleted')
    .action(async (flags: RekeyFlags) => {
      await withOptions(io, flags, async (options) => {
        const n = await resetRekey(options);
        io.stdout(`reset: ${n.toLocaleString('en-US')} rows deleted, the rekey's tables dropped\n`);
      });
    });
  const exported = new Command('export')
    .description('write every old id and its new id of the rekey on a target to a .csv or .json file')
    .requiredOption('--target <url>', 'the re-keyed database')
    .requiredOption('--out <file>', 'the file: .csv or .json')
    .action(async (flags: { target: string; out: string }) => {
      const [target] = await openAll([{ url: flags.target, readonly: true }]);
      try {
        const n = await exportToFile(target!, 'rekey', flags.out);
        io.stdout(`exported: ${n.toLocaleString('en-US')} old -> new ids to ${flags.out}\n`);
      } finally {
        await closeAll([target!]);
      }
    });
  return rekey.addCommand(run, { isDefault: true }).addCommand(verify).addCommand(reset).addCommand(exported);
}
