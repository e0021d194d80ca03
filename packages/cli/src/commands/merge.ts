import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { InvalidArgumentError } from '@snowkey/core';
import {
  exportMaps,
  type MergeDatabase,
  type MergeInputs,
  planMerge,
  resetMerge,
  runMerge,
  verifyMerge,
} from '@snowkey/merge';
import { Command } from 'commander';
import { CommandFailed } from '../command-failed.js';
import { collect, integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { presetLayout } from '../layout-flags.js';
import { closeAll, openAll, parsePolicies, parseSource } from '../merge-flags.js';
import { formatPlan, formatVerification } from '../merge-report.js';
import { writeMergeReport } from '../merge-report-html.js';
import { progressDisplay } from '../progress-display.js';

interface MergeFlags {
  target?: string;
  source: string[];
  onConflict: string[];
  keyCollisions: string;
  exclude: string[];
  acceptDrift: string[];
  renameTemplate?: string;
}

function addMergeFlags(command: Command): Command {
  return command
    .requiredOption(
      '--target <url>',
      'the merged database: postgres://, mysql://, mariadb://, file:/path.sqlite (it must exist)',
    )
    .option(
      '--source <label=url>',
      'a shard, in merge order (repeat); the label is the rename suffix; opened read-only',
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
    .option('--exclude <table>', 'a table not to copy (repeat)', collect, [])
    .option(
      '--accept-drift <id>',
      "go on despite this difference between the shards' schemas, by the id the plan shows (repeat; * for all)",
      collect,
      [],
    )
    .option(
      '--rename-template <template>',
      'how rename spells a new value: {name} {label} {server} {n}, e.g. "S{server}.{name}" (default "{name}.{label}")',
    );
}

/** Opens the databases of the flags (sources read-only), runs `body` with the merge inputs, closes them. */
async function withInputs<T>(flags: MergeFlags, body: (inputs: MergeInputs) => Promise<T>): Promise<T> {
  if (flags.source.length === 0)
    throw new InvalidArgumentError('--source', 'at least one LABEL=URL', undefined);
  const sources = flags.source.map(parseSource);
  const onConflict = parsePolicies(flags.onConflict);
  const keyCollisions = flags.keyCollisions;
  if (keyCollisions !== 'fail' && keyCollisions !== 'record') {
    throw new InvalidArgumentError('--key-collisions', 'fail or record', keyCollisions);
  }
  const dbs = await openAll([
    { url: flags.target!, readonly: false },
    ...sources.map((s) => ({ url: s.url, readonly: true })),
  ]);
  try {
    return await body({
      target: dbs[0]!,
      sources: sources.map((s, i) => ({ label: s.label, db: dbs[i + 1]! })),
      onConflict,
      keyCollisions,
      exclude: flags.exclude,
      acceptDrift: flags.acceptDrift,
      renameTemplate: flags.renameTemplate,
    });
  } finally {
    await closeAll(dbs);
  }
}

/** Writes a job's maps to `file` (CSV or JSON, by its extension), a page at a time. */
export async function exportToFile(
  target: MergeDatabase,
  job: 'merge' | 'rekey',
  file: string,
): Promise<number> {
  const format = file.endsWith('.json') ? 'json' : file.endsWith('.csv') ? 'csv' : null;
  if (format === null)
    throw new InvalidArgumentError('--export', 'a file name ending in .csv or .json', file);
  const out = createWriteStream(file);
  const n = await exportMaps(target, {
    job,
    format,
    write: async (text) => {
      if (!out.write(text)) await once(out, 'drain');
    },
  });
  out.end();
  await once(out, 'finish');
  return n;
}

/** `snowkey merge plan|run|verify|reset|export`: 合服 for any schema. */
export function mergeCommand(io: CliIo): Command {
  const merge = new Command('merge').description('merge database shards into one (合服), for any schema');
  const plan = addMergeFlags(new Command('plan'))
    .description(
      'dry run: schema drift between the shards, rows, key collisions, unique conflicts, dangling references, node ids; writes nothing',
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
    .description(
      'stage the sources, find every conflict, then copy in chunks (one transaction each), resumable after any kill; then verify',
    )
    .option('--batch <n>', 'rows per chunk (1..10000000)', '100000')
    .option('--no-verify', 'skip the verification (re-reads every row)')
    .option(
      '--report <file.html>',
      'write an HTML report of the run: rows per table and shard, conflicts, timings, a chart',
    )
    .option('--export <file>', 'write every rename and skip to a .csv or .json file')
    .action(
      async (flags: MergeFlags & { batch: string; verify: boolean; report?: string; export?: string }) => {
        const batchSize = integerFlag('--batch', flags.batch, 'an integer in 1..10000000');
        await withInputs(flags, async (inputs) => {
          const progress = progressDisplay(io);
          const result = await runMerge({ ...inputs, batchSize, onProgress: progress.onProgress }).finally(
            progress.stop,
          );
          const t = result.totals;
          const rate = result.run.copied > 0 ? Math.round((result.run.copied * 1000) / result.elapsedMs) : 0;
          io.stdout(
            `merged: ${t.copied.toLocaleString('en-US')} rows copied, ${t.renames.toLocaleString('en-US')} renamed, ${t.skipped} skipped, ${t.collisions} key collisions (this run: ${result.run.copied.toLocaleString('en-US')} rows in ${(result.elapsedMs / 1000).toFixed(1)} s, ${rate.toLocaleString('en-US')} rows/s, ${result.batches} chunks)\n`,
          );
          if (flags.export) {
            const n = await exportToFile(inputs.target, 'merge', flags.export);
            io.stdout(`exported: ${n.toLocaleString('en-US')} renames and skips to ${flags.export}\n`);
          }
          let verification = null;
          let verifyMs = 0;
          if (flags.verify) {
            const t0 = performance.now();
            verification = await verifyMerge(inputs);
            verifyMs = performance.now() - t0;
            io.stdout(formatVerification(verification));
          }
          if (flags.report) {
            await writeMergeReport(flags.report, { inputs, result, verification, verifyMs });
            io.stdout(`report: ${flags.report}\n`);
          }
          if (verification && !verification.ok) throw new CommandFailed(1);
        });
      },
    );
  const verify = addMergeFlags(new Command('verify'))
    .description('re-read every source row and check the merge by SQL; writes nothing')
    .action(async (flags: MergeFlags) => {
      await withInputs(flags, async (inputs) => {
        const v = await verifyMerge(inputs);
        io.stdout(formatVerification(v));
        if (!v.ok) throw new CommandFailed(1);
      });
    });
  const reset = addMergeFlags(new Command('reset'))
    .description(
      'undo a merge on its target (refused, failed, interrupted or finished): delete the rows it wrote, drop its snowkey_merge_* tables',
    )
    .requiredOption('--yes', 'confirm: rows the merge wrote are deleted')
    .action(async (flags: MergeFlags) => {
      await withInputs(flags, async (inputs) => {
        const n = await resetMerge(inputs);
        io.stdout(`reset: ${n.toLocaleString('en-US')} rows deleted, the merge's tables dropped\n`);
      });
    });
  const exported = new Command('export')
    .description('write every rename and skip of the merge on a target to a .csv or .json file')
    .requiredOption('--target <url>', 'the merged database')
    .requiredOption('--out <file>', 'the file: .csv or .json')
    .action(async (flags: { target: string; out: string }) => {
      const [target] = await openAll([{ url: flags.target, readonly: true }]);
      try {
        const n = await exportToFile(target!, 'merge', flags.out);
        io.stdout(`exported: ${n.toLocaleString('en-US')} renames and skips to ${flags.out}\n`);
      } finally {
        await closeAll([target!]);
      }
    });
  return merge.addCommand(plan).addCommand(run).addCommand(verify).addCommand(reset).addCommand(exported);
}
