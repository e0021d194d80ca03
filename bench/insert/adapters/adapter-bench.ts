import type { Snowflake } from '@snowkey/core';
import type { TestDatabase } from '@snowkey/test-harness';
import { countRows } from '../bench-database.js';
import { createTableSql, payloadRow } from '../tables.js';

/** Who assigns the key: the database, the application from `nextIds` (no adapter), or snowkey's adapter. */
export type Variant = 'autoincrement' | 'hand-set' | 'snowkey';
export const VARIANTS: readonly Variant[] = ['autoincrement', 'hand-set', 'snowkey'];
export const VARIANT_TABLE = {
  autoincrement: 'bench_auto',
  'hand-set': 'bench_hand',
  snowkey: 'bench_snow',
} as const;

export type BenchRow = { ownerId: bigint; name: string; score: number; createdAt: bigint };

/** Rows `offset` .. `offset + count - 1` as the ORMs take them. */
export function benchRows(count: number, offset: number): BenchRow[] {
  return Array.from({ length: count }, (_, i) => {
    const [ownerId, name, score, createdAt] = payloadRow(offset + i);
    return { ownerId, name, score, createdAt };
  });
}

/** Creates the three tables: autoincrement's, and the recommended key (SQLite: the guarded rowid). */
export async function createTables(db: TestDatabase): Promise<void> {
  for (const variant of VARIANTS) {
    const kind = variant === 'autoincrement' ? 'autoincrement' : 'snowkey-guarded';
    for (const sql of createTableSql(db.dialect, kind, VARIANT_TABLE[variant])) await db.query(sql);
  }
}

/** Throws unless `variant`'s table holds the `written` rows. */
export async function checkStored(db: TestDatabase, variant: Variant, written: number): Promise<void> {
  const stored = await countRows(db, VARIANT_TABLE[variant]);
  if (stored !== written) throw new Error(`${variant}: ${stored} rows stored, ${written} written`);
}

/** The rows a caller passes, fresh literals of one shape in every variant; `id` only for hand-set ids. */
export function callerRows(rows: readonly BenchRow[], variant: Variant, generator: Snowflake) {
  if (variant !== 'hand-set')
    return rows.map((r) => ({ ownerId: r.ownerId, name: r.name, score: r.score, createdAt: r.createdAt }));
  const ids = generator.nextIds(rows.length);
  return rows.map((r, i) => ({
    id: ids[i]!,
    ownerId: r.ownerId,
    name: r.name,
    score: r.score,
    createdAt: r.createdAt,
  }));
}

/** {@link callerRows} with snake_case column names. */
export function callerColumns(rows: readonly BenchRow[], variant: Variant, generator: Snowflake) {
  if (variant !== 'hand-set')
    return rows.map((r) => ({ owner_id: r.ownerId, name: r.name, score: r.score, created_at: r.createdAt }));
  const ids = generator.nextIds(rows.length);
  return rows.map((r, i) => ({
    id: ids[i]!,
    owner_id: r.ownerId,
    name: r.name,
    score: r.score,
    created_at: r.createdAt,
  }));
}

/** One way of writing rows: 1000 a call unless `single`; `otherSql` where hand-set ids make the ORM send other SQL. */
export interface WritePath {
  readonly name: string;
  readonly single?: boolean;
  readonly dialects?: readonly TestDatabase['dialect'][];
  readonly otherSql?: boolean;
}

type Write = (rows: readonly BenchRow[]) => PromiseLike<unknown>;
type Session = { writes: readonly Write[]; close(): Promise<unknown> };

/** An adapter's write paths, and a session on one database in one variant with a write per path. */
export interface AdapterBench {
  readonly name: string;
  readonly paths: readonly WritePath[];
  open(database: TestDatabase, variant: Variant, generator: Snowflake): Promise<Session>;
}

/** Calls `write` with consecutive slices of `rows`, `size` at a time (1: one row a call). */
export async function inChunks<T>(rows: readonly T[], size: number, write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/** Every adapter by its `--adapters` name, loaded on demand (under valgrind, loading all takes minutes). */
const LOADERS: Readonly<Record<string, () => Promise<AdapterBench>>> = {
  typeorm: async () => (await import('./typeorm-bench.js')).typeormBench,
  prisma: async () => (await import('./prisma-bench.js')).prismaBench('extension'),
  'prisma-client': async () => (await import('./prisma-bench.js')).prismaBench('snowkeyClient'),
  'prisma-pass-through': async () => (await import('./prisma-bench.js')).prismaBench('behind-pass-through'),
  'prisma-before-pass-through': async () =>
    (await import('./prisma-bench.js')).prismaBench('before-pass-through'),
  knex: async () => (await import('./knex-bench.js')).knexBench,
  drizzle: async () => (await import('./drizzle-bench.js')).drizzleBench,
  kysely: async () => (await import('./kysely-bench.js')).kyselyBench(false),
  'kysely-pass-through': async () => (await import('./kysely-bench.js')).kyselyBench(true),
  sequelize: async () => (await import('./sequelize-bench.js')).sequelizeBench,
};
export const ADAPTER_NAMES = Object.keys(LOADERS);

export const loadAdapter = (name: string): Promise<AdapterBench> => LOADERS[name]!();
