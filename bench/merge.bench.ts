// `pnpm bench:merge [--db sqlite,postgres,mysql] [--rows 1000000]`: merge and rekey of 3 shards through the
// built CLI beside a plain copy of the same rows (merge-world.ts, merge-plain-copy.ts).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { DATABASE_NAME, type Dialect, type FreshDatabase, freshDatabase, runSql } from './fresh-database.js';
import { table } from './measure.js';
import { plainCopy } from './merge-plain-copy.js';
import { fillStatements, worldSchema } from './merge-world.js';

const options = new Command()
  .option('--db <list>', 'sqlite,postgres,mysql', 'sqlite,postgres,mysql')
  .option('--rows <n>', 'rows in all shards', '1000000')
  .parse()
  .opts<Record<'db' | 'rows', string>>();
const ROWS = Number(options.rows);
const exec = promisify(execFile);
const CLI = fileURLToPath(new URL('../packages/cli/bin/snowkey.js', import.meta.url));
// Preloaded into the CLI: prints its peak resident set size (KiB) as it exits.
const PEAK_RSS =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("peak-rss "+process.resourceUsage().maxRSS))';

/** Runs the built CLI: its wall time, peak RSS (MB) and output. */
async function cli(...args: string[]) {
  const started = performance.now();
  const { stdout, stderr } = await exec(process.execPath, ['--import', PEAK_RSS, CLI, ...args], {
    maxBuffer: 2 ** 28,
  });
  const rssMb = Number(/peak-rss (\d+)/.exec(stderr)?.[1]) / 1024;
  return { ms: performance.now() - started, rssMb, stdout };
}

const rows: string[][] = [];
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** A job's row: a CLI job's rate against its plain copy's, its verification timed apart. */
type CliJob = { plainMs: number; verifyMs: number; rssMb: number };
function report(database: string, job: string, ms: number, cliJob?: CliJob) {
  rows.push([
    database,
    job,
    ROWS.toLocaleString('en-US'),
    secs(ms),
    Math.round((ROWS * 1000) / ms).toLocaleString('en-US'),
    cliJob ? (cliJob.plainMs / ms).toFixed(2) : '1.00',
    cliJob ? `${secs(cliJob.verifyMs)} (${(cliJob.verifyMs / ms).toFixed(2)}x)` : '-',
    cliJob ? `${Math.round(cliJob.rssMb)} MB` : '-',
  ]);
  console.error(`  ${rows.at(-1)!.join(' | ')}`);
}

console.log(`snowkey merge benchmark: ${ROWS.toLocaleString('en-US')} rows across 6 tables in 3 shards`);
for (const dialect of options.db.split(',') as Dialect[]) {
  const database = DATABASE_NAME[dialect];
  const made: FreshDatabase[] = [];
  /** A fresh database with the world's tables, named apart so that two runs never drop each other's. */
  const fresh = async (suffix: string) => {
    const db = await freshDatabase(dialect, `skbench${process.pid}_${suffix}`);
    made.push(db);
    await runSql(dialect, db.url, worldSchema(dialect));
    return db;
  };
  /** Milliseconds of a plain copy of `from` into a fresh target. */
  const plain = async (from: FreshDatabase[], suffix: string) => {
    const target = await fresh(suffix);
    const t = performance.now();
    await plainCopy(dialect, from, target);
    const ms = performance.now() - t;
    await target.drop();
    return ms;
  };
  try {
    console.error(`${database}: filling 3 shards...`);
    const shards: FreshDatabase[] = [];
    for (let i = 1; i <= 3; i++) {
      const shard = await fresh(`s${i}`);
      const fill = fillStatements(dialect, Math.round(ROWS / 3), BigInt(i) * 10n ** 12n, `s${i}`);
      await runSql(dialect, shard.url, fill);
      shards.push(shard);
    }

    // Merge: every shard into one target.
    const plainMs = await plain(shards, 'plain');
    report(database, 'plain copy', plainMs);
    const merged = await fresh('merged');
    const mergeArgs = [
      ...['--target', merged.url, '--on-conflict', 'accounts.handle=rename'],
      ...shards.flatMap((s, i) => ['--source', `S${i + 1}=${s.url}`]),
    ];
    const m = await cli('merge', 'run', ...mergeArgs, '--no-verify');
    const mv = await cli('merge', 'verify', ...mergeArgs);
    const renames = /(\d[\d,]*) renamed/.exec(m.stdout)?.[1] ?? '?';
    const rssMb = Math.max(m.rssMb, mv.rssMb);
    report(database, `merge run (${renames} renames)`, m.ms, { plainMs, verifyMs: mv.ms, rssMb });
    await merged.drop();

    // Rekey: each shard into a target of its own.
    const rekey = { plainMs: 0, ms: 0, verifyMs: 0, rssMb: 0 };
    for (const [i, s] of shards.entries()) rekey.plainMs += await plain([s], `plain${i + 1}`);
    for (const [i, s] of shards.entries()) {
      const target = await fresh(`rekeyed${i + 1}`);
      const layout = ['--layout', 'gameServer', '--server-id', `${i + 1}`];
      const args = ['--source', s.url, '--target', target.url, ...layout];
      const r = await cli('rekey', 'run', ...args, '--no-verify');
      const v = await cli('rekey', 'verify', ...args);
      await target.drop();
      rekey.ms += r.ms;
      rekey.verifyMs += v.ms;
      rekey.rssMb = Math.max(rekey.rssMb, r.rssMb, v.rssMb);
    }
    report(database, 'plain copy, a target per shard', rekey.plainMs);
    report(database, 'rekey', rekey.ms, rekey);
  } finally {
    for (const db of made) await db.drop();
  }
}
const head = 'database|job|rows|time|rows/s|rate / plain copy|verify (/ job)|CLI peak RSS'.split('|');
console.log(`\n${table(head, rows, 'llrrrrrr')}`);
