// The merge benchmark: `pnpm bench:merge` (flags: --db sqlite,postgres,mysql --rows 1000000
// --batch 1000). Per database: a shard of ROWS rows on AUTO_INCREMENT keys re-keyed into an empty
// copy, then two shards of ROWS/2 rows each merged into an empty target, each timed with its
// verification apart, beside the baseline: the same rows written by plain multi-row INSERTs.
// Never part of `pnpm test`.
import { rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { layouts } from '@snowkey/core';
import {
  type MergeDatabase,
  openDatabase,
  runMerge,
  runRekey,
  verifyMerge,
  verifyRekey,
} from '@snowkey/merge';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { type Dialect, fillWorld, worldSchema } from './merge-world.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres,mysql' },
    rows: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '1000' },
  },
});
const ROWS = Number(values.rows);
const BATCH = Number(values.batch);
const PG = process.env.SNOWKEY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MY = process.env.SNOWKEY_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

async function fresh(dialect: Dialect, name: string): Promise<{ db: MergeDatabase; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const file = join(tmpdir(), `${name}.sqlite`);
    const clean = () => {
      for (const s of ['', '-wal', '-shm', '-journal']) rmSync(file + s, { force: true });
    };
    clean();
    const db = await openDatabase(`file:${file}`);
    return {
      db,
      drop: async () => {
        await db.close();
        clean();
      },
    };
  }
  const url = new URL(dialect === 'postgres' ? PG : MY);
  const admin = async (sql: string) => {
    if (dialect === 'postgres') {
      const c = new pg.Client({ connectionString: PG });
      await c.connect();
      await c.query(sql).finally(() => c.end());
    } else {
      const c = await mysql.createConnection({ uri: MY });
      await c.query(sql).finally(() => c.end());
    }
  };
  const q = dialect === 'postgres' ? `"${name}"` : `\`${name}\``;
  await admin(`DROP DATABASE IF EXISTS ${q}`);
  await admin(`CREATE DATABASE ${q}`);
  url.pathname = `/${name}`;
  const db = await openDatabase(url.toString());
  return {
    db,
    drop: async () => {
      await db.close();
      await admin(`DROP DATABASE IF EXISTS ${q}${dialect === 'postgres' ? ' WITH (FORCE)' : ''}`);
    },
  };
}

async function world(
  dialect: Dialect,
  name: string,
  rows: number,
  base: bigint,
  autoincrement: boolean,
  shard: string,
) {
  const d = await fresh(dialect, name);
  for (const sql of worldSchema(dialect, autoincrement)) await d.db.execute(sql);
  if (rows > 0) await fillWorld(d.db, rows, base, shard);
  return d;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (rows: number, ms: number) => Math.round((rows * 1000) / ms).toLocaleString('en-US');
const rows: string[][] = [];
/** Keeps a result row for the table, and prints it at once so a failure later loses nothing. */
const results = {
  push(row: string[]) {
    rows.push(row);
    process.stdout.write(`  ${row.join(' | ')}\n`);
  },
};
console.log(`snowkey merge benchmark, ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x ${cpus().length}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`${ROWS.toLocaleString('en-US')} rows across 6 tables, batches of ${BATCH}\n`);

for (const dialect of values.db.split(',') as Dialect[]) {
  const made: { drop(): Promise<void> }[] = [];
  try {
    process.stdout.write(`${dialect}: filling...\n`);
    // The baseline: the same rows written by plain multi-row INSERTs in transactions, no reads.
    const fill0 = performance.now();
    const ai = await world(dialect, 'skbench_ai', ROWS, 0n, true, 'a');
    const fillMs = performance.now() - fill0;
    results.push([
      dialect,
      'baseline: plain INSERT',
      ROWS.toLocaleString('en-US'),
      secs(fillMs),
      rate(ROWS, fillMs),
      '-',
      '1.00',
    ]);
    const rk = await world(dialect, 'skbench_rekeyed', 0, 0n, false, '');
    made.push(ai, rk);
    const options = { source: ai.db, target: rk.db, layout: layouts.gameServer, node: { serverId: 9 } };
    const r = await runRekey({ ...options, batchSize: BATCH });
    const rv0 = performance.now();
    const rv = await verifyRekey(options);
    const rvMs = performance.now() - rv0;
    if (!rv.ok) throw new Error(`rekey did not verify: ${rv.problems.join('; ')}`);
    results.push([
      dialect,
      'rekey',
      r.totals.rowsCopied.toLocaleString('en-US'),
      secs(r.elapsedMs),
      rate(r.totals.rowsCopied, r.elapsedMs),
      secs(rvMs),
      (r.elapsedMs / fillMs).toFixed(2),
    ]);
    process.stdout.write(`${dialect}: rekey ${secs(r.elapsedMs)}\n`);

    const s1 = await world(dialect, 'skbench_s1', ROWS / 2, 1_000_000_000n, false, 'a');
    const s2 = await world(dialect, 'skbench_s2', ROWS / 2, 2_000_000_000n, false, 'b');
    const target = await world(dialect, 'skbench_merged', 0, 0n, false, '');
    made.push(s1, s2, target);
    const inputs = {
      sources: [
        { label: 'S1', db: s1.db },
        { label: 'S2', db: s2.db },
      ],
      target: target.db,
      onConflict: { 'accounts.handle': 'rename' } as const,
    };
    const m = await runMerge({ ...inputs, batchSize: BATCH });
    const mv0 = performance.now();
    const mv = await verifyMerge(inputs);
    const mvMs = performance.now() - mv0;
    if (!mv.ok) throw new Error(`merge did not verify: ${mv.problems.join('; ')}`);
    results.push([
      dialect,
      `merge run (${m.totals.renames} renames)`,
      m.totals.copied.toLocaleString('en-US'),
      secs(m.elapsedMs),
      rate(m.totals.copied, m.elapsedMs),
      secs(mvMs),
      (m.elapsedMs / fillMs).toFixed(2),
    ]);
    process.stdout.write(`${dialect}: merge ${secs(m.elapsedMs)}\n`);
  } finally {
    for (const d of made.reverse()) await d.drop();
  }
}

const head = ['database', 'job', 'rows', 'time', 'rows/s', 'verify', 'time / baseline'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
console.log(
  `\n${[head, ...rows].map((r) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).join('\n')}`,
);
