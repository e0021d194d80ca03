import { bigintTypeCast } from '@snowkey/core';
import { pgBigintTypes, snowkeyPlugin } from '@snowkey/kysely';
import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import { Kysely, type KyselyPlugin, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { type AdapterBench, type BenchRow, callerColumns, inChunks, VARIANT_TABLE } from './adapter-bench.js';

type Row = { id?: bigint; owner_id: bigint; name: string; score: number; created_at: bigint };

/** Each dialect's driver with exact BIGINT reads, as the adapter's README sets it up. */
function driver({ dialect, url, filename }: TestDatabase) {
  if (dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 2, types: pgBigintTypes(pg.types) });
    return new PostgresDialect({ pool });
  }
  if (dialect === 'mysql') {
    const pool = createPool({ uri: url, connectionLimit: 2, typeCast: bigintTypeCast() });
    return new MysqlDialect({ pool });
  }
  const database = new Database(filename!);
  database.defaultSafeIntegers(true);
  return new SqliteDialect({ database });
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
    const plugins = variant === 'snowkey' || againstPassThrough ? [plugin] : [];
    const kysely = new Kysely<Record<string, Row>>({ dialect: driver(database), plugins });
    const insert = (rows: readonly BenchRow[]) =>
      kysely
        .insertInto(table)
        .values(callerColumns(rows, variant, generator))
        .execute();
    return {
      writes: [(rows) => inChunks(rows, 1000, insert), (rows) => inChunks(rows, 1, insert)],
      close: () => kysely.destroy(),
    };
  },
});
