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
import {
  type AdapterBench,
  type BenchRow,
  callerColumns,
  inChunks,
  VARIANT_TABLE,
  type WritePath,
} from './adapter-bench.js';

type Key = ColumnType<bigint, bigint | undefined, never>;
interface Row {
  id: Key;
  owner_id: bigint;
  name: string;
  score: number;
  created_at: bigint;
}
type Tables = Record<string, Row>;

const paths = {
  insert: { name: 'insertInto().values(1000 rows)', rowsPerCall: 1000 },
  single: { name: 'insertInto().values(1 row)', rowsPerCall: 1 },
} satisfies Record<string, WritePath>;

/** Kysely over each dialect's driver with exact BIGINT reads, as the adapter's README sets it up. */
function open(db: BenchDatabase, plugins: KyselyPlugin[]): Kysely<Tables> {
  const c = db.database;
  if (db.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: c.url, max: 2, types: pgBigintTypes(pg.types) });
    return new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), plugins });
  }
  if (db.dialect === 'mysql') {
    const pool = createPool({ uri: c.url, connectionLimit: 2, typeCast: bigintTypeCast() });
    return new Kysely<Tables>({ dialect: new MysqlDialect({ pool }), plugins });
  }
  const database = new Database(c.filename!);
  database.defaultSafeIntegers(true);
  return new Kysely<Tables>({ dialect: new SqliteDialect({ database }), plugins });
}

/** A plugin that leaves every query and result as they are: Kysely's plugin mechanism alone. */
export const passThroughPlugin: KyselyPlugin = {
  transformQuery: ({ node }) => node,
  transformResult: async ({ result }) => result,
};

/** Kysely 0.28: `insertInto().values()` of 1000 rows and of one; `againstPassThrough` adds a no-op plugin to the baselines. */
function kyselyBenchOf(againstPassThrough: boolean): AdapterBench {
  return {
    name: againstPassThrough ? 'Kysely (plugin vs a pass-through one)' : 'Kysely',
    paths: Object.values(paths),
    async open(db, variant, generator) {
      const table = VARIANT_TABLE[variant];
      const plugins =
        variant === 'snowkey'
          ? [snowkeyPlugin({ generator, tables: { [table]: 'id' } })]
          : againstPassThrough
            ? [passThroughPlugin]
            : [];
      const kysely = open(db, plugins);
      const rowsFor = (rows: readonly BenchRow[]) => callerColumns(rows, variant, generator);
      const insert = (rows: readonly BenchRow[]) => kysely.insertInto(table).values(rowsFor(rows)).execute();
      return {
        async write(path, rows) {
          if (path === paths.insert) await inChunks(rows, 1000, insert);
          else for (const row of rows) await insert([row]);
        },
        close: () => kysely.destroy(),
      };
    },
  };
}

export const kyselyBench = kyselyBenchOf(false);
export const kyselyPassThroughBench = kyselyBenchOf(true);
