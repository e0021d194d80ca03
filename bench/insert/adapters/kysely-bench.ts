import { bigintTypeCast } from '@snowkey/core';
import { pgBigintTypes, snowkeyPlugin } from '@snowkey/kysely';
import type { TestDatabase } from '@snowkey/test-harness';
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
import {
  type AdapterBench,
  type BenchRow,
  callerColumns,
  inChunks,
  oneByOne,
  VARIANT_TABLE,
} from './adapter-bench.js';

interface Row {
  id: ColumnType<bigint, bigint | undefined, never>;
  owner_id: bigint;
  name: string;
  score: number;
  created_at: bigint;
}

/** Kysely over each dialect's driver with exact BIGINT reads, as the adapter's README sets it up. */
function open(
  { dialect, url, filename }: TestDatabase,
  plugins: KyselyPlugin[],
): Kysely<Record<string, Row>> {
  if (dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 2, types: pgBigintTypes(pg.types) });
    return new Kysely({ dialect: new PostgresDialect({ pool }), plugins });
  }
  if (dialect === 'mysql') {
    const pool = createPool({ uri: url, connectionLimit: 2, typeCast: bigintTypeCast() });
    return new Kysely({ dialect: new MysqlDialect({ pool }), plugins });
  }
  const database = new Database(filename!);
  database.defaultSafeIntegers(true);
  return new Kysely({ dialect: new SqliteDialect({ database }), plugins });
}

/** A plugin that leaves every query and result as they are: Kysely's plugin mechanism alone. */
const passThroughPlugin: KyselyPlugin = {
  transformQuery: ({ node }) => node,
  transformResult: async ({ result }) => result,
};

/** Kysely 0.28: `insertInto().values()` of 1000 rows and of one; `againstPassThrough` gives the baselines a no-op plugin. */
export const kyselyBench = (againstPassThrough: boolean): AdapterBench => ({
  name: againstPassThrough ? 'Kysely (plugin vs a pass-through one)' : 'Kysely',
  paths: [{ name: 'insertInto().values(1000 rows)' }, { name: 'insertInto().values(1 row)', single: true }],
  async open(database, variant, generator) {
    const table = VARIANT_TABLE[variant];
    const plugin =
      variant === 'snowkey' ? snowkeyPlugin({ generator, tables: { [table]: 'id' } }) : passThroughPlugin;
    const kysely = open(database, variant === 'snowkey' || againstPassThrough ? [plugin] : []);
    const insert = (rows: readonly BenchRow[]) =>
      kysely
        .insertInto(table)
        .values(callerColumns(rows, variant, generator))
        .execute();
    return {
      writes: [(rows) => inChunks(rows, 1000, insert), (rows) => oneByOne(rows, (row) => insert([row]))],
      close: () => kysely.destroy(),
    };
  },
});
