import { parseArgs } from 'node:util';
import { InvalidArgumentError, SnowkeyError } from '@snowkey/core';
import { withoutSeparator } from './cli-options.js';
import { dialectOfUrl, openDatabase } from './database.js';
import { mergeShards } from './merge-shards.js';
import { createMissingGameTables } from './schema-sql.js';

const USAGE = `pnpm --filter @snowkey/example-merge merge -- --target URL --source 1=URL --source 2=URL [flags]

Merges game shards into the target database (the game tables it lacks are created first).
Safe to kill at any point and run again: it resumes from the last committed batch, and a run
after the merge finished copies nothing and reports the same totals.

  --target URL               the merged database (postgres://, mysql://, file:/path.sqlite)
  --source ID=URL            a shard and its server id; repeat, in merge order
  --batch N                  rows per batch (default 500)
  --stop-after K             stop cleanly after K batches
  --pause-inside-batch K     hold batch K open after its inserts, before its commit (for kill tests)
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: withoutSeparator(process.argv.slice(2)),
    options: {
      target: { type: 'string' },
      source: { type: 'string', multiple: true, default: [] },
      batch: { type: 'string', default: '500' },
      'stop-after': { type: 'string' },
      'pause-inside-batch': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!values.target) throw new InvalidArgumentError('--target', 'the merged database URL', values.target);
  const sources = values.source.map((s) => {
    const m = /^([0-9]+)=(.+)$/.exec(s);
    if (!m) throw new InvalidArgumentError('--source', 'ID=URL, e.g. 2=file:/tmp/s2.sqlite', s);
    const url = m[2]!;
    return { serverId: Number(m[1]), db: openDatabase({ dialect: dialectOfUrl(url), url }) };
  });
  const pauseAt = optionalInt('--pause-inside-batch', values['pause-inside-batch']);
  const target = openDatabase({ dialect: dialectOfUrl(values.target), url: values.target });
  try {
    await createMissingGameTables(target, dialectOfUrl(values.target));
    const run = await mergeShards({
      sources,
      target,
      batchSize: optionalInt('--batch', values.batch) ?? 500,
      stopAfterBatches: optionalInt('--stop-after', values['stop-after']),
      onProgress: (p) =>
        process.stdout.write(
          `progress ${p.table} S${p.serverId} ${p.copied}/${p.total}${p.done ? ' done' : ''}\n`,
        ),
      beforeCommit: async ({ batch }) => {
        if (batch !== pauseAt) return;
        process.stdout.write(`paused inside batch ${batch}\n`);
        // Held open until the process is killed; the interval keeps Node from exiting.
        await new Promise(() => setInterval(() => {}, 60_000));
      },
    });
    const t = run.totals;
    process.stdout.write(
      `this run: ${run.rowsCopied} rows in ${run.batches} batches; the merge so far: ${t.rowsCopied} rows, ${t.collisions} key collisions, ${t.renames} renames\n`,
    );
    process.stdout.write(`${run.complete ? 'complete' : 'stopped'} ${JSON.stringify(run)}\n`);
  } finally {
    await Promise.all([target.destroy(), ...sources.map((s) => s.db.destroy())]);
  }
}

function optionalInt(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+$/.test(raw)) throw new InvalidArgumentError(flag, 'a non-negative integer', raw);
  return Number(raw);
}

main().catch((err) => {
  process.stderr.write(
    err instanceof SnowkeyError ? `${err.name}: ${err.message}\n` : `${err?.stack ?? err}\n`,
  );
  process.exitCode = 2;
});
