import { InvalidArgumentError } from '@snowkey/core';
import { type MergeInputs, planMerge, runMerge, verifyMerge } from '@snowkey/merge';
import { Command } from 'commander';
import { CommandFailed } from '../command-failed.js';
import { collect, integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { presetLayout } from '../layout-flags.js';
import { closeAll, openAll, parsePolicies, parseSource } from '../merge-flags.js';
import { formatPlan, formatVerification } from '../merge-report.js';
import { progressDisplay } from '../progress-display.js';

interface MergeFlags {
  target?: string;
  source: string[];
  onConflict: string[];
  keyCollisions: string;
  exclude: string[];
}

function addMergeFlags(command: Command): Command {
  return command
    .requiredOption(
      '--target <url>',
      'the merged database: postgres://, mysql://, mariadb://, file:/path.sqlite',
    )
    .option(
      '--source <label=url>',
      'a shard, in merge order (repeat); the label is the rename suffix',
      collect,
      [],
    )
    .option(
      '--on-conflict <constraint=policy>',
      'rename, skip or fail for a unique constraint, e.g. players.name=rename (repeat)',
      collect,
      [],
    )
    .option('--key-collisions <mode>', 'a source key another row holds: fail (default) or record', 'fail')
    .option('--exclude <table>', 'a table not to copy (repeat)', collect, []);
}

/** Opens the databases of the flags, runs `body` with the merge inputs, closes them. */
async function withInputs<T>(flags: MergeFlags, body: (inputs: MergeInputs) => Promise<T>): Promise<T> {
  if (flags.source.length === 0)
    throw new InvalidArgumentError('--source', 'at least one LABEL=URL', undefined);
  const sources = flags.source.map(parseSource);
  const onConflict = parsePolicies(flags.onConflict);
  const keyCollisions = flags.keyCollisions;
  if (keyCollisions !== 'fail' && keyCollisions !== 'record') {
    throw new InvalidArgumentError('--key-collisions', 'fail or record', keyCollisions);
  }
  const dbs = await openAll([flags.target!, ...sources.map((s) => s.url)]);
  try {
    return await body({
      target: dbs[0]!,
      sources: sources.map((s, i) => ({ label: s.label, db: dbs[i + 1]! })),
      onConflict,
      keyCollisions,
      exclude: flags.exclude,
    });
  } finally {
    await closeAll(dbs);
  }
}

/** `snowkey merge plan|run`: 合服 for any schema. */
export function mergeCommand(io: CliIo): Command {
  const merge = new Command('merge').description('merge database shards into one (合服), for any schema');
  const plan = addMergeFlags(new Command('plan'))
    .description(
      'dry run: rows, key collisions, unique conflicts, dangling references, node ids; writes nothing',
    )
    .option(
      '--layout <name>',
      "the ids' layout (gameServer, snowkey, ...): report the node ids in each source's keys",
    )
    .option('--json', 'print the plan as JSON')
    .action(async (flags: MergeFlags & { layout?: string; json?: boolean }) => {
      const layout = flags.layout === undefined ? undefined : presetLayout(flags.layout);
      const result = await withInputs(flags, (inputs) => planMerge({ ...inputs, layout }));
      io.stdout(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatPlan(result));
      if (!result.ok) throw new CommandFailed(1);
    });
  const run = addMergeFlags(new Command('run'))
    .description('copy in keyset batches (one transaction each), resumable after any kill; then verify')
    .option('--batch <n>', 'source rows per batch (1..50000)', '1000')
    .option('--no-verify', 'skip the verification (re-reads every row)')
    .action(async (flags: MergeFlags & { batch: string; verify: boolean }) => {
      const batchSize = integerFlag('--batch', flags.batch, 'an integer in 1..50000');
      await withInputs(flags, async (inputs) => {
        const progress = progressDisplay(io);
        const result = await runMerge({ ...inputs, batchSize, onProgress: progress.onProgress }).finally(
          progress.stop,
        );
        const t = result.totals;
        const rate = result.run.copied > 0 ? Math.round((result.run.copied * 1000) / result.elapsedMs) : 0;
        io.stdout(
          `merged: ${t.copied.toLocaleString('en-US')} rows copied, ${t.renames} renamed, ${t.skipped} skipped, ${t.collisions} key collisions (this run: ${result.run.copied.toLocaleString('en-US')} rows in ${(result.elapsedMs / 1000).toFixed(1)} s, ${rate.toLocaleString('en-US')} rows/s, ${result.batches} batches)\n`,
        );
        if (!flags.verify) return;
        const v = await verifyMerge(inputs);
        io.stdout(formatVerification(v));
        if (!v.ok) throw new CommandFailed(1);
      });
    });
  return merge.addCommand(plan).addCommand(run);
}
