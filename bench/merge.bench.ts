// `pnpm bench:merge [--db sqlite,postgres,mysql] [--rows 1000000] [--shards 3] [--batch n]`: merge and
// rekey through the built CLI beside a plain copy of the same shards (merge-world.ts, merge-plain-copy.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Dialect, type FreshDatabase, freshDatabase, runSql } from './fresh-database.js';
import { table } from './measure.js';
import { plainCopy } from './merge-plain-copy.js';
import { fillStatements, worldSchema } from './merge-world.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres,mysql' },
    rows: { type: 'string', default: '1000000' },
    shards: { type: 'string', default: '3' },
    batch: { type: 'string' },
  },
});
const ROWS = Number(values.rows);
const SHARDS = Number(values.shards);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'packages/cli/bin/snowkey.js');
const PEAK_RSS = join(ROOT, 'bench/peak-rss.mjs');
const DB_NAME: Record<Dialect, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL 15',
  mysql: 'MariaDB 10.11',
};

/** A fresh database of this run (named apart, so two runs never drop each other's) with the world's tables. */
async function fresh(dialect: Dialect, suffix: string): Promise<FreshDatabase> {
  const db = await freshDatabase(dialect, `skbench${process.pid}_${suffix}`);
  await runSql(dialect, db.url, worldSchema(dialect));
  return db;
}

/** Runs the built CLI; resolves to its wall time, peak RSS (MB) and output, or rejects with its output. */
function cli(args: string[]): Promise<{ ms: number; rssMb: number; stdout: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_RSS, CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let tail = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c;
  });
  child.stderr.on('data', (c: Buffer) => {
    tail = (tail + c).slice(-20_000);
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const peak = /peak-rss (\d+)/.exec(tail);
      if (code !== 0)
        reject(new Error(`snowkey ${args.slice(0, 2).join(' ')} exited ${code}:\n${stdout}\n${tail}`));
      else
        resolve({
          ms: performance.now() - started,
          rssMb: peak ? Number(peak[1]) / 1024 : Number.NaN,
          stdout,
        });
    });
  });
}

async function timed(body: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await body();
  return performance.now() - t;
}

const HEAD = [
  'database',
  'job',
  'rows',
  'time',
  'rows/s',
  'rate / plain copy',
  'verify (/ job)',
  'CLI peak RSS',
];
const rows: string[][] = [];
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** One job's row of the table; a plain copy has no baseline, verification or CLI. */
function report(
  database: string,
  job: string,
  ms: number,
  cliRun?: { plainMs: number; verifyMs: number; rssMb: number },
) {
  const row = [
    database,
    job,
    ROWS.toLocaleString('en-US'),
    secs(ms),
    Math.round((ROWS * 1000) / ms).toLocaleString('en-US'),
    cliRun ? (cliRun.plainMs / ms).toFixed(2) : '1.00',
    cliRun ? `${secs(cliRun.verifyMs)} (${(cliRun.verifyMs / ms).toFixed(2)}x)` : '-',
    cliRun ? `${Math.round(cliRun.rssMb)} MB` : '-',
  ];
  rows.push(row);
  console.log(`  ${row.join(' | ')}`);
}

console.log(
  `snowkey merge benchmark: ${ROWS.toLocaleString('en-US')} rows across 6 tables in ${SHARDS} shards`,
);
const batch = values.batch ? ['--batch', values.batch] : [];

for (const dialect of values.db.split(',') as Dialect[]) {
  const database = DB_NAME[dialect];
  const made: { drop(): Promise<void> }[] = [];
  /** A fresh database that is dropped at the end of this database's jobs, whatever happens. */
  const target = async (suffix: string) => {
    const db = await fresh(dialect, suffix);
    made.push(db);
    return db;
  };
  try {
    console.log(`${database}: filling ${SHARDS} shards...`);
    const shards: FreshDatabase[] = [];
    for (let i = 1; i <= SHARDS; i++) {
      const s = await target(`s${i}`);
      await runSql(
        dialect,
        s.url,
        fillStatements(dialect, Math.round(ROWS / SHARDS), BigInt(i) * 10n ** 12n, `s${i}`),
      );
      shards.push(s);
    }

    // Merge: every shard into one target.
    const plain = await target('plain');
    const plainMs = await timed(() => plainCopy(dialect, shards, plain));
    await plain.drop();
    report(database, 'plain copy', plainMs);
    const merged = await target('merged');
    const mergeArgs = [
      ...['--target', merged.url],
      ...shards.flatMap((s, i) => ['--source', `S${i + 1}=${s.url}`]),
      ...['--on-conflict', 'accounts.handle=rename'],
    ];
    const m = await cli(['merge', 'run', ...mergeArgs, ...batch, '--no-verify']);
    const mv = await cli(['merge', 'verify', ...mergeArgs]);
    const renames = /(\d[\d,]*) renamed/.exec(m.stdout)?.[1] ?? '?';
    report(database, `merge run (${renames} renames)`, m.ms, {
      plainMs,
      verifyMs: mv.ms,
      rssMb: Math.max(m.rssMb, mv.rssMb),
    });
    await merged.drop();

    // Rekey: each shard into a target of its own.
    let plainEachMs = 0;
    for (const [i, s] of shards.entries()) {
      const t = await target(`plain${i + 1}`);
      plainEachMs += await timed(() => plainCopy(dialect, [s], t));
      await t.drop();
    }
    report(database, 'plain copy, a target per shard', plainEachMs);
    const rekey = { ms: 0, verifyMs: 0, rssMb: 0 };
    for (const [i, s] of shards.entries()) {
      const t = await target(`rekeyed${i + 1}`);
      const args = [...['--source', s.url, '--target', t.url], ...['--layout', 'gameServer']];
      args.push('--server-id', String(i + 1));
      const r = await cli(['rekey', 'run', ...args, ...batch, '--no-verify']);
      const v = await cli(['rekey', 'verify', ...args]);
      rekey.ms += r.ms;
      rekey.verifyMs += v.ms;
      rekey.rssMb = Math.max(rekey.rssMb, r.rssMb, v.rssMb);
      await t.drop();
    }
    report(database, 'rekey', rekey.ms, {
      plainMs: plainEachMs,
      verifyMs: rekey.verifyMs,
      rssMb: rekey.rssMb,
    });
  } finally {
    for (const d of made.reverse()) await d.drop();
  }
}

console.log(`\n${table(HEAD, rows, 'llrrrrrr')}`);
