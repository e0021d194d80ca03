import type { Snowflake } from '@snowkey/core';
import type { BenchDatabase } from '../bench-database.js';
import { type BenchRow, createTableSql } from '../tables.js';

export type { BenchRow } from '../tables.js';

/** Who assigns the key: the database, the application from `nextIds` (no adapter), or snowkey's adapter. */
export type Variant = 'autoincrement' | 'hand-set' | 'snowkey';
export const VARIANTS: readonly Variant[] = ['autoincrement', 'hand-set', 'snowkey'];
export const VARIANT_TABLE: Readonly<Record<Variant, string>> = {
  autoincrement: 'bench_auto',
  'hand-set': 'bench_hand',
  snowkey: 'bench_snow',
};

/** Creates (or empties) the three tables: autoincrement's, and the recommended key (SQLite: the guarded rowid). */
export async function resetAdapterTables(db: BenchDatabase): Promise<void> {
  for (const [variant, table] of Object.entries(VARIANT_TABLE)) {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    const kind = variant === 'autoincrement' ? 'autoincrement' : 'snowkey-guarded';
    for (const sql of createTableSql(db.dialect, kind, table)) await db.exec(sql);
  }
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

/** One way of writing rows; `sameStatements: false` where hand-set ids make the ORM send other SQL. */
export interface WritePath {
  readonly name: string;
  readonly rowsPerCall: number;
  readonly dialects?: readonly BenchDatabase['dialect'][];
  readonly sameStatements?: boolean;
}

/** What each adapter's bench module supplies: its write paths, and a session on one database in one variant. */
export interface AdapterBench {
  readonly name: string;
  readonly paths: readonly WritePath[];
  open(
    db: BenchDatabase,
    variant: Variant,
    generator: Snowflake,
  ): Promise<{ write(path: WritePath, rows: readonly BenchRow[]): Promise<void>; close(): Promise<void> }>;
}

/** Calls `write` with consecutive slices of `rows`, `size` at a time, one after the other. */
export async function inChunks<T>(rows: readonly T[], size: number, write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/** Every adapter by its `--adapters` name, loaded on demand (under valgrind, loading all takes minutes). */
const LOADERS: Readonly<Record<string, () => Promise<AdapterBench>>> = {
  typeorm: async () => (await import('./typeorm-bench.js')).typeormBench,
  prisma: async () => (await import('./prisma-bench.js')).prismaBench('extension'),
  'prisma-client': async () => (await import('./prisma-bench.js')).prismaBench('wrapper'),
  'prisma-pass-through': async () => (await import('./prisma-bench.js')).prismaBench('vs-pass-through'),
  'prisma-before-pass-through': async () =>
    (await import('./prisma-bench.js')).prismaBench('before-pass-through'),
  knex: async () => (await import('./knex-bench.js')).knexBench,
  drizzle: async () => (await import('./drizzle-bench.js')).drizzleBench,
  kysely: async () => (await import('./kysely-bench.js')).kyselyBench(false),
  'kysely-pass-through': async () => (await import('./kysely-bench.js')).kyselyBench(true),
  sequelize: async () => (await import('./sequelize-bench.js')).sequelizeBench,
};
export const ADAPTER_NAMES = Object.keys(LOADERS);

export async function loadAdapterBench(name: string): Promise<AdapterBench> {
  const load = LOADERS[name];
  if (!load) throw new Error(`unknown adapter ${name}: ${ADAPTER_NAMES.join(', ')}`);
  return load();
}
