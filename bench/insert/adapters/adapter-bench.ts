import type { Snowflake } from '@snowkey/core';
import type { BenchDatabase } from '../bench-database.js';

/**
 * The three ways one ORM writes the same rows, compared side by side:
 * - `autoincrement`: the database assigns the key (the ORM's usual setup);
 * - `hand-set`: the application sets every key itself from `generator.nextIds` (no adapter);
 * - `snowkey`: the snowkey adapter assigns them.
 * `snowkey` against `hand-set` is what the adapter costs; against `autoincrement`, what an
 * application-assigned key costs in that ORM, adapter included.
 */
export type Variant = 'autoincrement' | 'hand-set' | 'snowkey';

export const VARIANTS: readonly Variant[] = ['autoincrement', 'hand-set', 'snowkey'];

/** The table each variant writes to; the bench creates them (./adapter-tables.ts). */
export const VARIANT_TABLE: Readonly<Record<Variant, string>> = {
  autoincrement: 'bench_auto',
  'hand-set': 'bench_hand',
  snowkey: 'bench_snow',
};

/** One row's payload, as the ORMs take it (camelCase properties mapped to snake_case columns). */
export type BenchRow = {
  ownerId: bigint;
  name: string;
  score: number;
  createdAt: bigint;
};

/** A row as the caller hands it to the ORM: the payload, and for hand-set ids the key too. */
export type CallerRow = BenchRow & { id?: bigint };
/** The same row with snake_case column names, as Knex and Kysely users write rows. */
export type CallerColumns = {
  id?: bigint;
  owner_id: bigint;
  name: string;
  score: number;
  created_at: bigint;
};

/**
 * The rows a caller passes to the ORM, built alike for every variant (fresh object literals of one
 * shape each), so no variant pays for a slower way of building them: `id` first, from
 * `generator.nextIds`, for hand-set ids; no `id` for autoincrement and for snowkey (the adapter
 * fills it).
 */
export function callerRows(
  rows: readonly BenchRow[],
  variant: Variant,
  generator: { nextIds(count: number): bigint[] },
): CallerRow[] {
  if (variant !== 'hand-set') {
    return rows.map((r) => ({ ownerId: r.ownerId, name: r.name, score: r.score, createdAt: r.createdAt }));
  }
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
export function callerColumns(
  rows: readonly BenchRow[],
  variant: Variant,
  generator: { nextIds(count: number): bigint[] },
): CallerColumns[] {
  if (variant !== 'hand-set') {
    return rows.map((r) => ({ owner_id: r.ownerId, name: r.name, score: r.score, created_at: r.createdAt }));
  }
  const ids = generator.nextIds(rows.length);
  return rows.map((r, i) => ({
    id: ids[i]!,
    owner_id: r.ownerId,
    name: r.name,
    score: r.score,
    created_at: r.createdAt,
  }));
}

/** One way of writing rows: `rowsPerCall` rows per ORM call (1 for the single-row paths). */
export interface WritePath {
  readonly name: string;
  readonly rowsPerCall: number;
  /** Dialects on which the ORM has this path (Prisma has no createManyAndReturn on MySQL). */
  readonly dialects?: readonly BenchDatabase['dialect'][];
  /**
   * False where the ORM sends other statements for hand-set ids than for snowkey's (TypeORM's
   * `save()` SELECTs caller-set ids first): there only the clock compares the two.
   */
  readonly sameStatements?: boolean;
}

/** An open ORM on one bench database, in one variant. */
export interface AdapterBenchSession {
  /** Writes `rows` through `path`, `path.rowsPerCall` rows per call; resolves when all are written. */
  write(path: WritePath, rows: readonly BenchRow[]): Promise<void>;
  close(): Promise<void>;
}

/** What each adapter's bench module supplies. */
export interface AdapterBench {
  /** The ORM's name as users know it: 'TypeORM', 'Prisma', 'Knex'... */
  readonly name: string;
  readonly paths: readonly WritePath[];
  /** Opens the ORM on `db` for `variant`; `generator` gives the keys of `hand-set` and `snowkey`. */
  open(db: BenchDatabase, variant: Variant, generator: Snowflake): Promise<AdapterBenchSession>;
}

/** Calls `write` with consecutive slices of `rows`, `size` at a time, one after the other. */
export async function inChunks<T>(
  rows: readonly T[],
  size: number,
  write: (chunk: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}
