import { snowkeyKnex, withBigintReads } from '@snowkey/knex';
import knexFactory, { type Knex } from 'knex';
import { type AdapterBench, type BenchRow, callerColumns, inChunks, VARIANT_TABLE } from './adapter-bench.js';

/** Knex 3: `insert` of 1000 rows (copies, and in place), `batchInsert`, one-row inserts; 500 a statement on SQLite, where Knex's compound SELECT takes no more. */
export const knexBench: AdapterBench = {
  name: 'Knex',
  paths: [
    { name: 'insert(1000 rows; 500 on SQLite)' },
    { name: 'insert(1000 rows; 500 on SQLite), fillInPlace' },
    { name: 'batchInsert(rows, 1000; 500 on SQLite)' },
    { name: 'insert(1 row)', single: true },
  ],
  async open(database, variant, generator) {
    const { dialect, url, filename } = database;
    const config: Knex.Config =
      dialect === 'sqlite'
        ? { client: 'better-sqlite3', connection: { filename: filename! }, useNullAsDefault: true }
        : { client: dialect === 'postgres' ? 'pg' : 'mysql2', connection: url, pool: { min: 1, max: 2 } };
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
    const chunk = dialect === 'sqlite' ? 500 : 1000;
    const batch = (rows: readonly BenchRow[]) =>
      variant === 'snowkey'
        ? sk.batchInsert(table, rowsFor(rows), chunk)
        : knex.batchInsert(table, rowsFor(rows), chunk);
    return {
      writes: [
        (rows) => inChunks(rows, chunk, plain),
        (rows) => inChunks(rows, chunk, filled),
        batch,
        (rows) => inChunks(rows, 1, plain),
      ],
      close: () => knex.destroy(),
    };
  },
};
