// `pnpm bench:adopt [--rows 1000000] [--dialects postgres,mysql,sqlite]`: `snowkey adopt` of a 1M-row
// SERIAL / AUTO_INCREMENT table and a 1M-row table referencing it, beside a plain ALTER to BIGINT.
import { layouts } from '@snowkey/core';
import { applyAdopt, openDatabase } from '@snowkey/merge';
import { Command } from 'commander';
import { DATABASE_NAME, type Dialect, freshDatabase, runSql } from './fresh-database.js';
import { table } from './measure.js';

const options = new Command()
  .option('--rows <n>', 'rows in each of the two tables', '1000000')
  .option('--dialects <list>', 'postgres,mysql,sqlite', 'postgres,mysql,sqlite')
  .parse()
  .opts<{ rows: string; dialects: string }>();
const ROWS = Number(options.rows);

function schema(dialect: Dialect): string[] {
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
function plainAlter(dialect: Dialect): string[] {
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

type Db = Awaited<ReturnType<typeof openDatabase>>;

/** Seconds `body` takes on a fresh copy of the two tables. */
async function timedOnCopy(dialect: Dialect, name: string, body: (db: Db) => Promise<unknown>) {
  const fresh = await freshDatabase(dialect, name);
  try {
    await runSql(dialect, fresh.url, schema(dialect));
    const db = await openDatabase(fresh.url);
    try {
      const t = performance.now();
      await body(db);
      return (performance.now() - t) / 1000;
    } finally {
      await db.close();
    }
  } finally {
    await fresh.drop();
  }
}

const rows: string[][] = [];
for (const dialect of options.dialects.split(',') as Dialect[]) {
  const adopt = await timedOnCopy(dialect, 'snowkey_bench_adopt', (db) =>
    applyAdopt(db, { layout: layouts.snowkey, tables: ['players', 'items'] }),
  );
  const alter = await timedOnCopy(dialect, 'snowkey_bench_alter', async (db) => {
    for (const sql of plainAlter(dialect)) await db.execute(sql);
  });
  rows.push([
    DATABASE_NAME[dialect],
    (2 * ROWS).toLocaleString('en-US'),
    adopt.toFixed(2),
    dialect === 'sqlite' ? '-' : alter.toFixed(2),
    dialect === 'sqlite' ? '-' : `${(adopt / alter).toFixed(2)}x`,
  ]);
}
console.log(
  table(['database', 'rows (2 tables)', 'snowkey adopt s', 'plain ALTER s', 'adopt / ALTER'], rows),
);
