// `pnpm bench:adopt [--rows 1000000] [--dialects postgres,mysql,sqlite]`: `snowkey adopt` of a SERIAL /
// AUTO_INCREMENT table and a table referencing it, beside the same widening by plain ALTER TABLE.
import { layouts } from '@snowkey/core';
import { applyAdopt, type MergeDatabase, openDatabase } from '@snowkey/merge';
import { Command } from 'commander';
import { DATABASE_NAME, type Dialect, freshDatabase, runSql } from './fresh-database.js';
import { table } from './measure.js';

const options = new Command()
  .option('--rows <n>', 'rows in each of the two tables', '1000000')
  .option('--dialects <list>', 'postgres,mysql,sqlite', 'postgres,mysql,sqlite')
  .parse()
  .opts<Record<'rows' | 'dialects', string>>();
const ROWS = Number(options.rows);

const RECURSIVE = `WITH RECURSIVE c(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM c WHERE g < ${ROWS})`;
/** Per database: the key column, the rows 1..ROWS as `g`, and a name from `g`. */
const SERIES: Record<Dialect, [key: string, rows: string, name: string]> = {
  postgres: ['SERIAL PRIMARY KEY', `generate_series(1, ${ROWS}) s(g)`, "'p' || g"],
  mysql: [
    'INT NOT NULL AUTO_INCREMENT PRIMARY KEY',
    `(SELECT seq AS g FROM seq_1_to_${ROWS}) s`,
    "CONCAT('p', g)",
  ],
  sqlite: ['INTEGER PRIMARY KEY AUTOINCREMENT', `(${RECURSIVE} SELECT g FROM c) s`, "'p' || g"],
};
/** The two tables (INTEGER is INT on MariaDB), filled by the database itself. */
function schema(dialect: Dialect): string[] {
  const [key, rows, name] = SERIES[dialect];
  return [
    `CREATE TABLE players (id ${key}, name VARCHAR(40) NOT NULL)`,
    `CREATE TABLE items (id ${key}, owner_id INTEGER NOT NULL, FOREIGN KEY (owner_id) REFERENCES players (id))`,
    `INSERT INTO players (name) SELECT ${name} FROM ${rows}`,
    `INSERT INTO items (owner_id) SELECT g FROM ${rows}`,
  ];
}

/** The same widening by hand, the floor any tool meets (SQLite's keys already hold 64 bits). */
const PLAIN_ALTER: Record<Dialect, string[]> = {
  postgres: [
    'ALTER TABLE players ALTER COLUMN id TYPE BIGINT',
    'ALTER TABLE items ALTER COLUMN owner_id TYPE BIGINT',
    'ALTER TABLE players ALTER COLUMN id DROP DEFAULT',
  ],
  mysql: [
    'ALTER TABLE items DROP FOREIGN KEY items_ibfk_1',
    'ALTER TABLE players MODIFY id BIGINT NOT NULL',
    'ALTER TABLE items MODIFY owner_id BIGINT NOT NULL',
    'ALTER TABLE items ADD CONSTRAINT items_ibfk_1 FOREIGN KEY (owner_id) REFERENCES players (id)',
  ],
  sqlite: [],
};

/** Seconds `body` takes on a fresh copy of the two tables. */
async function timedOnCopy(dialect: Dialect, body: (db: MergeDatabase) => Promise<unknown>) {
  const fresh = await freshDatabase(dialect, 'snowkey_bench_adopt');
  await runSql(dialect, fresh.url, schema(dialect));
  const db = await openDatabase(fresh.url);
  const t = performance.now();
  await body(db);
  const seconds = (performance.now() - t) / 1000;
  await db.close();
  await fresh.drop();
  return seconds;
}

const rows: string[][] = [];
for (const dialect of options.dialects.split(',') as Dialect[]) {
  const adopt = await timedOnCopy(dialect, (db) =>
    applyAdopt(db, { layout: layouts.snowkey, tables: ['players', 'items'] }),
  );
  const alter = await timedOnCopy(dialect, async (db) => {
    for (const sql of PLAIN_ALTER[dialect]) await db.execute(sql);
  });
  const [plain, ratio] =
    dialect === 'sqlite' ? ['-', '-'] : [alter.toFixed(2), `${(adopt / alter).toFixed(2)}x`];
  rows.push([DATABASE_NAME[dialect], (2 * ROWS).toLocaleString('en-US'), adopt.toFixed(2), plain, ratio]);
}
console.log(table('database|rows (2 tables)|snowkey adopt s|plain ALTER s|adopt / ALTER'.split('|'), rows));
