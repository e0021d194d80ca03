import { snowkeyKnex, withBigintReads } from '@snowkey/knex';
import knexFactory, { type Knex } from 'knex';
import { type AdapterBench, type BenchRow, callerColumns, inChunks, VARIANT_TABLE } from './adapter-bench.js';

// SQLite takes at most 500 rows in one INSERT as Knex writes it (a compound SELECT), so rows go in
// 500s there and in 1000s elsewhere, for every variant alike. `fillInPlace`: ids written into the
// rows passed, no copies.
const [insert, inPlace, batchInsert, single] = [
  { name: 'insert(1000 rows; 500 on SQLite)', rowsPerCall: 1000 },
  { name: 'insert(1000 rows; 500 on SQLite), fillInPlace', rowsPerCall: 1000 },
  { name: 'batchInsert(rows, 1000; 500 on SQLite)', rowsPerCall: 1000 },
  { name: 'insert(1 row)', rowsPerCall: 1 },
];

/** Knex 3: `insert` of 1000 rows (copies, and in place), `batchInsert` in chunks of 1000, and one-row inserts. */
export const knexBench: AdapterBench = {
  name: 'Knex',
  paths: [insert!, inPlace!, batchInsert!, single!],
  async open(db, variant, generator) {
    const { url, filename } = db.database;
    const pool = { min: 1, max: 2 };
    const config: Knex.Config =
      db.dialect === 'sqlite'
        ? { client: 'better-sqlite3', connection: { filename: filename! }, useNullAsDefault: true }
        : { client: db.dialect === 'postgres' ? 'pg' : 'mysql2', connection: url, pool };
    const knex = knexFactory(withBigintReads(config));
    const table = VARIANT_TABLE[variant];
    const sk = snowkeyKnex(knex, { generator, tables: { [table]: 'id' } });
    const skInPlace = snowkeyKnex(knex, { generator, tables: { [table]: 'id' }, fillInPlace: true });
    const rowsFor = (rows: readonly BenchRow[]) => callerColumns(rows, variant, generator);
    const insertWith = (helper: typeof sk) => async (rows: readonly BenchRow[]) =>
      variant === 'snowkey'
        ? await helper.insert(table, rowsFor(rows))
        : await knex(table).insert(rowsFor(rows));
    const [plain, filled] = [insertWith(sk), insertWith(skInPlace)];
    const chunk = db.dialect === 'sqlite' ? 500 : 1000;
    return {
      async write(path, rows) {
        if (path === insert) await inChunks(rows, chunk, plain);
        else if (path === inPlace) await inChunks(rows, chunk, filled);
        else if (path === batchInsert) {
          const all = rowsFor(rows);
          await (variant === 'snowkey'
            ? sk.batchInsert(table, all, chunk)
            : knex.batchInsert(table, all, chunk));
        } else for (const row of rows) await plain([row]);
      },
      close: () => knex.destroy(),
    };
  },
};
