import { InvalidArgumentError } from '@snowkey/core';
import { runRekey, verifyRekey } from '@snowkey/merge';
import { Command } from 'commander';
import { CommandFailed } from '../command-failed.js';
import { collect, epochFlag, integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { presetLayout } from '../layout-flags.js';
import { closeAll, openAll } from '../merge-flags.js';
import { formatVerification } from '../merge-report.js';
import { addNodeFlags, nodeOptions } from '../node-flags.js';
import { progressDisplay } from '../progress-display.js';

/** `snowkey rekey`: an AUTO_INCREMENT shard copied with snowkey ids of its server. */
export function rekeyCommand(io: CliIo): Command {
  const command = new Command('rekey')
    .description(
      "copy an AUTO_INCREMENT/serial shard with snowkey ids (the server's node id inside), every foreign key rewritten; resumable, verified",
    )
    .requiredOption('--source <url>', 'the shard (only read)')
    .requiredOption('--target <url>', 'the re-keyed copy: the same tables, empty, keys BIGINT')
    .option('--layout <name>', 'the layout your generator will use (default snowkey)', 'snowkey')
    .option('--exclude <table>', 'a table not to copy (repeat)', collect, [])
    .option('--batch <n>', 'source rows per batch (1..50000)', '1000')
    .option(
      '--at <ISO|ms>',
      'date the new ids before this instant instead of now (a rehearsal and the real run then agree); not later than now',
    )
    .option('--no-verify', 'skip the verification (re-reads every row)');
  addNodeFlags(command);
  return command.action(
    async (
      flags: {
        source: string;
        target: string;
        layout: string;
        exclude: string[];
        batch: string;
        verify: boolean;
      } & Record<string, unknown>,
    ) => {
      const layout = presetLayout(flags.layout);
      const node = nodeOptions(layout, flags, io.env);
      if ('nodeId' in node) {
        throw new InvalidArgumentError(
          '--node-id',
          `the node fields of layout ${layout.name} by name (e.g. --server-id)`,
          node.nodeId,
        );
      }
      const batchSize = integerFlag('--batch', flags.batch, 'an integer in 1..50000');
      const now = (io.clock ?? Date.now)();
      const at = flags.at === undefined ? now : epochFlag(String(flags.at));
      if (at > now)
        throw new InvalidArgumentError(
          '--at',
          `an instant not later than now (${new Date(now).toISOString()})`,
          flags.at,
        );
      const [source, target] = await openAll([flags.source, flags.target]);
      try {
        const options = { source: source!, target: target!, layout, node, exclude: flags.exclude };
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
        if (!flags.verify) return;
        const v = await verifyRekey(options);
        io.stdout(formatVerification(v));
        if (!v.ok) throw new CommandFailed(1);
      } finally {
        await closeAll([source!, target!]);
      }
    },
  );
}
