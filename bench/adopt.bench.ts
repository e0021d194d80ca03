/**
 * `snowkey adopt` on a table of 1M rows with AUTO_INCREMENT / SERIAL keys, referenced by a second
 * table of 1M rows: the time of the switch (keys and references widened to BIGINT, the default
 * dropped) on each database, beside a plain `ALTER TABLE ... BIGINT` of the same two columns on an
 * identical copy, in one run.
 *
 *   pnpm bench:adopt [--rows 1000000] [--dialects postgres,mysql,sqlite]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { layouts } from '@snowkey/core';
import { applyAdopt, openDatabase } from '@snowkey/merge';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { markdownTable } from 'markdown-table';

const options = new Command()
  .option('--rows <n>', 'rows in each of the two tables', '1000000')
  .option('--dialects <list>', 'postgres,mysql,sqlite', 'postgres,mysql,sqlite')
  .parse()
  .opts<{ rows: string; dialects: string }>();
const ROWS = Number(options.rows);
const PG = process.env.SNOWKEY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MY = process.env.SNOWKEY_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

function urlOf(dialect: string, name: string, dir: string): string {
  if (dialect === 'sqlite') return `file:${join(dir, `${name}.sqlite`)}`;
  const u = new URL(dialect === 'postgres' ? PG : MY);
  u.pathname = `/${name}`;
  return u.toString();
}

function schema(dialect: string): string[] {
  const n = ROWS;
  if (dialect === 'postgres')
    return [
      'CREATE TABLE players (id SERIAL PRIMARY KEY, name VARCHAR(40) NOT NULL)',
      'CREATE TABLE items (id SERIAL PRIMARY KEY, owner_id INTEGER NOT NULL REFERENCES players (id))',
      `INSERT INTO players (name) SELECT 'p' || g FROM generate_series(1, ${n}) g`,
      `INSERT INTO items (owner_id) SELECT g FROM generate_series(1, ${n}) g`,
    ];
  if (dialect === 'mysql')
    return [
      'CREATE TABLE players (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40) NOT NULL)',
      'CREATE TABLE items (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, owner_id INT NOT NULL, FOREIGN KEY (owner_id) REFERENCES players (id))',
      `INSERT INTO players (name) SELECT CONCAT('p', seq) FROM seq_1_to_${n}`,
      `INSERT INTO items (owner_id) SELECT seq FROM seq_1_to_${n}`,
    ];
  return [
    'CREATE TABLE players (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(40) NOT NULL)',
    'CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, owner_id INTEGER NOT NULL REFERENCES players (id))',
    `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${n}) INSERT INTO players (name) SELECT 'p' || g FROM s`,
    `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${n}) INSERT INTO items (owner_id) SELECT g FROM s`,
  ];
}

/** The same widening by hand, the floor any tool meets. */
function plainAlter(dialect: string): string[] {
  if (dialect === 'postgres')
    return [
      'ALTER TABLE players ALTER COLUMN id TYPE BIGINT',
      'ALTER TABLE items ALTER COLUMN owner_id TYPE BIGINT',
      'ALTER TABLE players ALTER COLUMN id DROP DEFAULT',
    ];
  if (dialect === 'mysql')
    return [
      'ALTER TABLE items DROP FOREIGN KEY items_ibfk_1',
      'ALTER TABLE players MODIFY id BIGINT NOT NULL',
      'ALTER TABLE items MODIFY owner_id BIGINT NOT NULL',
      'ALTER TABLE items ADD CONSTRAINT items_ibfk_1 FOREIGN KEY (owner_id) REFERENCES players (id)',
    ];
  return [];
}

async function withDatabase<T>(
  dialect: string,
  name: string,
  dir: string,
  body: (url: string) => Promise<T>,
) {
  const admin = dialect === 'sqlite' ? null : await openDatabase(dialect === 'postgres' ? PG : MY);
  await admin?.execute(`DROP DATABASE IF EXISTS ${name}`);
  await admin?.execute(`CREATE DATABASE ${name}`);
  if (dialect === 'sqlite') new Database(join(dir, `${name}.sqlite`)).close(); // openDatabase never creates one
  try {
    return await body(urlOf(dialect, name, dir));
  } finally {
    await admin?.execute(`DROP DATABASE IF EXISTS ${name}`);
    await admin?.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'snowkey-adopt-bench-'));
const rows: string[][] = [];
try {
  for (const dialect of options.dialects.split(',')) {
    const seconds: number[] = [];
    for (const [name, run] of [
      [
        'snowkey_bench_adopt',
        async (url: string) => {
          const db = await openDatabase(url);
          try {
            const t = performance.now();
            const plan = await applyAdopt(db, { layout: layouts.snowkey, tables: ['players', 'items'] });
            seconds.push((performance.now() - t) / 1000);
            return plan.steps.length;
          } finally {
            await db.close();
          }
        },
      ],
      [
        'snowkey_bench_alter',
        async (url: string) => {
          const db = await openDatabase(url);
          try {
            const t = performance.now();
            for (const sql of plainAlter(dialect)) await db.execute(sql);
            seconds.push((performance.now() - t) / 1000);
            return 0;
          } finally {
            await db.close();
          }
        },
      ],
    ] as const) {
      await withDatabase(dialect, name, dir, async (url) => {
        const db = await openDatabase(url);
        for (const sql of schema(dialect)) await db.execute(sql);
        await db.close();
        await run(url);
      });
    }
    const [adopt, alter] = seconds as [number, number];
    rows.push([
      dialect === 'mysql' ? 'MariaDB' : dialect === 'postgres' ? 'PostgreSQL' : 'SQLite',
      (2 * ROWS).toLocaleString('en-US'),
      adopt.toFixed(2),
      dialect === 'sqlite' ? '-' : alter.toFixed(2),
      dialect === 'sqlite' ? '-' : `${(adopt / alter).toFixed(2)}x`,
    ]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  markdownTable(
    [['database', 'rows (2 tables)', 'snowkey adopt s', 'plain ALTER s', 'adopt / ALTER'], ...rows],
    {
      align: ['l', 'r', 'r', 'r', 'r'],
    },
  ),
);
