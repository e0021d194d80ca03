import { snowkeyKnex, withBigintReads } from '@snowkey/knex';
import knexFactory, { type Knex } from 'knex';
import type { BenchDatabase } from '../bench-database.js';
import {
  type AdapterBench,
  type BenchRow,
  callerColumns,
  inChunks,
  VARIANT_TABLE,
  type WritePath,
} from './adapter-bench.js';

// SQLite takes at most 500 rows in one INSERT as Knex writes it (a compound SELECT), so rows go in
// 500s there and in 1000s elsewhere, for every variant alike.
const paths = {
  insert: { name: 'insert(1000 rows; 500 on SQLite)', rowsPerCall: 1000 },
  // The same INSERT with the helper's `fillInPlace`: ids written into the rows passed, no copies.
  inPlace: { name: 'insert(1000 rows; 500 on SQLite), fillInPlace', rowsPerCall: 1000 },
  batchInsert: { name: 'batchInsert(rows, 1000; 500 on SQLite)', rowsPerCall: 1000 },
  single: { name: 'insert(1 row)', rowsPerCall: 1 },
} satisfies Record<string, WritePath>;

function config(db: BenchDatabase): Knex.Config {
  const c = db.database;
  if (db.dialect === 'postgres') return { client: 'pg', connection: c.url, pool: { min: 1, max: 2 } };
  if (db.dialect === 'mysql') return { client: 'mysql2', connection: c.url, pool: { min: 1, max: 2 } };
  return { client: 'better-sqlite3', connection: { filename: c.filename! }, useNullAsDefault: true };
}

/** Knex 3: `insert` of 1000 rows (copies, and in place), `batchInsert` in chunks of 1000, and one-row inserts. */
export const knexBench: AdapterBench = {
  name: 'Knex',
  paths: Object.values(paths),
  async open(db, variant, generator) {
    const knex = knexFactory(withBigintReads(config(db)));
    const table = VARIANT_TABLE[variant];
    const sk = snowkeyKnex(knex, { generator, tables: { [table]: 'id' } });
    const skInPlace = snowkeyKnex(knex, { generator, tables: { [table]: 'id' }, fillInPlace: true });
    const rowsFor = (rows: readonly BenchRow[]) => callerColumns(rows, variant, generator);
    const insertWith =
      (helper: typeof sk) =>
      async (rows: readonly BenchRow[]): Promise<unknown> =>
        variant === 'snowkey'
          ? await helper.insert(table, rowsFor(rows))
          : await knex(table).insert(rowsFor(rows));
    const insert = insertWith(sk);
    const insertInPlace = insertWith(skInPlace);
    const chunk = db.dialect === 'sqlite' ? 500 : 1000;
    return {
      async write(path, rows) {
        if (path === paths.insert) await inChunks(rows, chunk, insert);
        else if (path === paths.inPlace) await inChunks(rows, chunk, insertInPlace);
        else if (path === paths.batchInsert) {
          const all = rowsFor(rows);
          await (variant === 'snowkey'
            ? sk.batchInsert(table, all, chunk)
            : knex.batchInsert(table, all, chunk));
        } else for (const row of rows) await insert([row]);
      },
      close: () => knex.destroy(),
    };
  },
};
