// The merge benchmark: `pnpm bench:merge` (flags: --db sqlite,postgres,mysql --rows 1000000
// --shards 3 --batch <n> --out <dir>). Per database, SHARDS shards of ROWS rows in all (6 tables,
// snowflake-style keys, one handle in a hundred on every shard), then side by side in one run:
// - plain copy: the shards' rows copied into one empty target by the fastest route the database
//   offers (bench/merge-plain-copy.ts), no snowkey code;
// - merge run: `snowkey merge run` of the same shards into an empty target, then its verification;
// - plain copy of each shard into an empty target of its own, and `snowkey rekey` of each shard
//   into an empty target, then its verification.
// The jobs run the built CLI as a child process, whose peak RSS the table shows. Never part of
// `pnpm test`.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { type BenchDb, plainCopy } from './merge-plain-copy.js';
import { type Dialect, fillStatements, worldSchema } from './merge-world.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres,mysql' },
    rows: { type: 'string', default: '1000000' },
    shards: { type: 'string', default: '3' },
    batch: { type: 'string' },
    out: { type: 'string' },
  },
});
const ROWS = Number(values.rows);
const SHARDS = Number(values.shards);
const PG = process.env.SNOWKEY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MY = process.env.SNOWKEY_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'packages/cli/bin/snowkey.js');
const PEAK_RSS = join(ROOT, 'bench/peak-rss.mjs');
const DB_NAME: Record<Dialect, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL 15',
  mysql: 'MariaDB 10.11',
};

async function admin(dialect: Dialect, sql: string): Promise<void> {
  if (dialect === 'postgres') {
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  } else if (dialect === 'mysql') {
    const c = await mysql.createConnection({ uri: MY });
    await c.query(sql).finally(() => c.end());
  }
}

/** A fresh database with the world's tables, empty. */
/** Databases of this run are named apart, so two runs never drop each other's. */
const RUN = `skbench${process.pid}`;

async function fresh(dialect: Dialect, short: string): Promise<BenchDb & { drop(): Promise<void> }> {
  const name = short.replace(/^skbench/, RUN);
  if (dialect === 'sqlite') {
    const file = join(tmpdir(), `${name}.sqlite`);
    const clean = () => {
      for (const s of ['', '-wal', '-shm', '-journal']) rmSync(file + s, { force: true });
    };
    clean();
    const db = new Database(file);
    for (const sql of worldSchema(dialect)) db.exec(sql);
    db.close();
    return { url: `file:${file}`, name: file, drop: async () => clean() };
  }
  const q = dialect === 'postgres' ? `"${name}"` : `\`${name}\``;
  await admin(dialect, `DROP DATABASE IF EXISTS ${q}`);
  await admin(dialect, `CREATE DATABASE ${q}`);
  const url = new URL(dialect === 'postgres' ? PG : MY);
  url.pathname = `/${name}`;
  await run(dialect, url.toString(), worldSchema(dialect));
  return {
    url: url.toString(),
    name,
    drop: () =>
      admin(dialect, `DROP DATABASE IF EXISTS ${q}${dialect === 'postgres' ? ' WITH (FORCE)' : ''}`),
  };
}

async function run(dialect: Dialect, url: string, statements: string[]): Promise<void> {
  if (dialect === 'sqlite') {
    const db = new Database(url.replace(/^file:/, ''));
    for (const sql of statements) db.exec(sql);
    db.close();
  } else if (dialect === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      for (const sql of statements) await c.query(sql);
    } finally {
      await c.end();
    }
  } else {
    const c = await mysql.createConnection({ uri: url });
    try {
      for (const sql of statements) await c.query(sql);
    } finally {
      await c.end();
    }
  }
}

/** Runs the built CLI; resolves to its wall time and peak RSS, or rejects with its output. */
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
      const ms = performance.now() - started;
      const peak = /peak-rss (\d+)/.exec(tail);
      if (code !== 0)
        reject(new Error(`snowkey ${args.slice(0, 2).join(' ')} exited ${code}:\n${stdout}\n${tail}`));
      else resolve({ ms, rssMb: peak ? Number(peak[1]) / 1024 : Number.NaN, stdout });
    });
  });
}

async function timed(body: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await body();
  return performance.now() - t;
}

interface Row {
  database: string;
  job: string;
  rows: number;
  ms: number;
  baselineMs: number | null;
  rssMb: number | null;
  verifyMs: number | null;
}
const results: Row[] = [];
const fmt = (x: number) => x.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (rows: number, ms: number) => Math.round((rows * 1000) / ms);

function cells(r: Row): string[] {
  const projected = (r.ms * 1e8) / r.rows;
  return [
    r.database,
    r.job,
    fmt(r.rows),
    secs(r.ms),
    fmt(rate(r.rows, r.ms)),
    r.baselineMs === null ? '1.00' : (r.baselineMs / r.ms).toFixed(2),
    r.verifyMs === null ? '-' : `${secs(r.verifyMs)} (${(r.verifyMs / r.ms).toFixed(2)}x)`,
    r.rssMb === null ? '-' : `${Math.round(r.rssMb)} MB`,
    `${(projected / 60_000).toFixed(0)} min`,
  ];
}
const head = [
  'database',
  'job',
  'rows',
  'time',
  'rows/s',
  'rate / plain copy',
  'verify (/ job)',
  'CLI peak RSS',
  '100M rows',
];
const push = (r: Row) => {
  results.push(r);
  console.log(`  ${cells(r).join(' | ')}`);
};

const started = new Date();
console.log(`snowkey merge benchmark, ${started.toISOString()}`);
console.log(
  `node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x ${cpus().length}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`${fmt(ROWS)} rows across 6 tables in ${SHARDS} shards\n`);
const batch = values.batch ? ['--batch', values.batch] : [];

for (const dialect of values.db.split(',') as Dialect[]) {
  const database = DB_NAME[dialect];
  const made: { drop(): Promise<void> }[] = [];
  const shards: BenchDb[] = [];
  try {
    console.log(`${database}: filling ${SHARDS} shards...`);
    for (let i = 1; i <= SHARDS; i++) {
      const s = await fresh(dialect, `skbench_s${i}`);
      made.push(s);
      await run(
        dialect,
        s.url,
        fillStatements(dialect, Math.round(ROWS / SHARDS), BigInt(i) * 10n ** 12n, `s${i}`),
      );
      shards.push(s);
    }
    const rows = ROWS;

    // Merge shape: every shard into one target.
    const plainTarget = await fresh(dialect, 'skbench_plain');
    const plainMs = await timed(() => plainCopy(dialect, shards, plainTarget));
    await plainTarget.drop();
    push({
      database,
      job: 'plain copy into one target',
      rows,
      ms: plainMs,
      baselineMs: null,
      rssMb: null,
      verifyMs: null,
    });
    const merged = await fresh(dialect, 'skbench_merged');
    made.push(merged);
    const mergeArgs = [
      '--target',
      merged.url,
      ...shards.flatMap((s, i) => ['--source', `S${i + 1}=${s.url}`]),
      '--on-conflict',
      'accounts.handle=rename',
    ];
    const m = await cli(['merge', 'run', ...mergeArgs, ...batch, '--no-verify']);
    const mv = await cli(['merge', 'verify', ...mergeArgs]);
    const renames = /(\d[\d,]*) renamed/.exec(m.stdout)?.[1] ?? '?';
    push({
      database,
      job: `merge run (${renames} renames)`,
      rows,
      ms: m.ms,
      baselineMs: plainMs,
      rssMb: Math.max(m.rssMb, mv.rssMb),
      verifyMs: mv.ms,
    });
    await merged.drop();

    // Rekey shape: each shard into a target of its own.
    let plainEachMs = 0;
    for (const [i, s] of shards.entries()) {
      const t = await fresh(dialect, `skbench_plain${i + 1}`);
      plainEachMs += await timed(() => plainCopy(dialect, [s], t));
      await t.drop();
    }
    push({
      database,
      job: 'plain copy, one target per shard',
      rows,
      ms: plainEachMs,
      baselineMs: null,
      rssMb: null,
      verifyMs: null,
    });
    let rekeyMs = 0;
    let verifyMs = 0;
    let rss = 0;
    for (const [i, s] of shards.entries()) {
      const t = await fresh(dialect, `skbench_rekeyed${i + 1}`);
      made.push(t);
      const args = [
        '--source',
        s.url,
        '--target',
        t.url,
        '--layout',
        'gameServer',
        '--server-id',
        String(i + 1),
      ];
      const r = await cli(['rekey', 'run', ...args, ...batch, '--no-verify']);
      const v = await cli(['rekey', 'verify', ...args]);
      rekeyMs += r.ms;
      verifyMs += v.ms;
      rss = Math.max(rss, r.rssMb, v.rssMb);
      await t.drop();
    }
    push({
      database,
      job: 'rekey, each shard',
      rows,
      ms: rekeyMs,
      baselineMs: plainEachMs,
      rssMb: rss,
      verifyMs,
    });
  } finally {
    for (const d of made.reverse()) await d.drop();
  }
}

const all = [head, ...results.map(cells)];
const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  `| ${r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
console.log(
  `\n${[line(head), `|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...results.map((r) => line(cells(r)))].join('\n')}`,
);
console.log(
  `\nload at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

if (values.out) {
  mkdirSync(values.out, { recursive: true });
  writeFileSync(
    join(values.out, 'results.json'),
    `${JSON.stringify({ started, rows: ROWS, shards: SHARDS, results }, null, 2)}\n`,
  );
  const spec: vl.TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `Rows/s, ${fmt(ROWS)} rows in ${SHARDS} shards`,
    data: {
      values: results.map((r) => ({
        database: r.database,
        job: r.job.replace(/ \(.*\)$/, ''),
        rowsPerSecond: rate(r.rows, r.ms),
      })),
    },
    facet: { column: { field: 'database', type: 'nominal', title: null } },
    spec: {
      width: 220,
      height: 160,
      mark: 'bar',
      encoding: {
        y: { field: 'job', type: 'nominal', title: null, sort: null, axis: { labelLimit: 0 } },
        x: { field: 'rowsPerSecond', type: 'quantitative', title: 'rows/s' },
      },
    },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  writeFileSync(join(values.out, 'merge-rates.svg'), await view.toSVG());
  view.finalize();
  console.log(`results and chart in ${values.out}`);
}
