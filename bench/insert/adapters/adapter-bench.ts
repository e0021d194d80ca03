import type { Snowflake } from '@snowkey/core';
import type { BenchDatabase } from '../bench-database.js';

/** Who assigns the key: the database, the application from `nextIds` (no adapter), or snowkey's adapter. */
export type Variant = 'autoincrement' | 'hand-set' | 'snowkey';

export const VARIANTS: readonly Variant[] = ['autoincrement', 'hand-set', 'snowkey'];

/** The table each variant writes to; the bench creates them (./adapter-tables.ts). */
export const VARIANT_TABLE: Readonly<Record<Variant, string>> = {
  autoincrement: 'bench_auto',
  'hand-set': 'bench_hand',
  snowkey: 'bench_snow',
};

/** One row's payload, as the ORMs take it. */
export type BenchRow = {
  ownerId: bigint;
  name: string;
  score: number;
  createdAt: bigint;
};

/** A row as the caller hands it to the ORM (the key only for hand-set ids), camelCase or snake_case. */
export type CallerRow = BenchRow & { id?: bigint };
export type CallerColumns = {
  id?: bigint;
  owner_id: bigint;
  name: string;
  score: number;
  created_at: bigint;
};

/** The rows a caller passes, fresh literals of one shape in every variant; `id` only for hand-set ids. */
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

/** One way of writing rows; `sameStatements: false` where hand-set ids make the ORM send other SQL. */
export interface WritePath {
  readonly name: string;
  readonly rowsPerCall: number;
  readonly dialects?: readonly BenchDatabase['dialect'][];
  readonly sameStatements?: boolean;
}

/** An open ORM on one bench database, in one variant. */
export interface AdapterBenchSession {
  write(path: WritePath, rows: readonly BenchRow[]): Promise<void>;
  close(): Promise<void>;
}

/** What each adapter's bench module supplies. */
export interface AdapterBench {
  readonly name: string;
  readonly paths: readonly WritePath[];
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
