import { bigintTypeCast } from '@snowkey/core';
import { pgBigintTypes, snowkeyPlugin } from '@snowkey/kysely';
import Database from 'better-sqlite3';
import {
  type ColumnType,
  Kysely,
  type KyselyPlugin,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
} from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import type { BenchDatabase } from '../bench-database.js';
import { type AdapterBench, type BenchRow, callerColumns, inChunks, VARIANT_TABLE } from './adapter-bench.js';

interface Row {
  id: ColumnType<bigint, bigint | undefined, never>;
  owner_id: bigint;
  name: string;
  score: number;
  created_at: bigint;
}
type Tables = Record<string, Row>;

const [bulk, single] = [
  { name: 'insertInto().values(1000 rows)', rowsPerCall: 1000 },
  { name: 'insertInto().values(1 row)', rowsPerCall: 1 },
];

/** Kysely over each dialect's driver with exact BIGINT reads, as the adapter's README sets it up. */
function open(db: BenchDatabase, plugins: KyselyPlugin[]): Kysely<Tables> {
  const { url, filename } = db.database;
  if (db.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 2, types: pgBigintTypes(pg.types) });
    return new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), plugins });
  }
  if (db.dialect === 'mysql') {
    const pool = createPool({ uri: url, connectionLimit: 2, typeCast: bigintTypeCast() });
    return new Kysely<Tables>({ dialect: new MysqlDialect({ pool }), plugins });
  }
  const database = new Database(filename!);
  database.defaultSafeIntegers(true);
  return new Kysely<Tables>({ dialect: new SqliteDialect({ database }), plugins });
}

/** A plugin that leaves every query and result as they are: Kysely's plugin mechanism alone. */
const passThroughPlugin: KyselyPlugin = {
  transformQuery: ({ node }) => node,
  transformResult: async ({ result }) => result,
};

/** Kysely 0.28: `insertInto().values()` of 1000 rows and of one; `againstPassThrough` adds a no-op plugin to the baselines. */
export const kyselyBench = (againstPassThrough: boolean): AdapterBench => ({
  name: againstPassThrough ? 'Kysely (plugin vs a pass-through one)' : 'Kysely',
  paths: [bulk!, single!],
  async open(db, variant, generator) {
    const table = VARIANT_TABLE[variant];
    const plugin =
      variant === 'snowkey' ? snowkeyPlugin({ generator, tables: { [table]: 'id' } }) : passThroughPlugin;
    const kysely = open(db, variant === 'snowkey' || againstPassThrough ? [plugin] : []);
    const insert = (rows: readonly BenchRow[]) =>
      kysely
        .insertInto(table)
        .values(callerColumns(rows, variant, generator))
        .execute();
    return {
      async write(path, rows) {
        if (path === bulk) await inChunks(rows, 1000, insert);
        else for (const row of rows) await insert([row]);
      },
      close: () => kysely.destroy(),
    };
  },
});
