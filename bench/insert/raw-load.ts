import type { BenchDatabase } from './bench-database.js';
import { createTableSql, type KeyKind, keySource, PAYLOAD_COLUMNS } from './key-kinds.js';
import { loadRow } from './payload.js';
import { sum } from './stats.js';

/** One kind's load: rows/s over each tenth and over the whole, and the table's size. */
export interface LoadResult {
  readonly kind: KeyKind;
  readonly slices: readonly number[];
  readonly total: number;
  readonly bytes: { readonly data: number; readonly index: number };
}

export interface RawLoadOptions {
  readonly rows: number;
  readonly batch: number;
  readonly onSlice?: (kind: KeyKind, slice: number) => void;
}

const SLICES = 10;

/** Loads a fresh table per key kind a tenth at a time, kinds interleaved in rotating order. */
export async function rawLoad(
  db: BenchDatabase,
  kinds: readonly KeyKind[],
  round: number,
  options: RawLoadOptions,
): Promise<LoadResult[]> {
  const tables = new Map(kinds.map((k) => [k, `bench_${k.replace(/-/g, '_')}_${round}`]));
  for (const [kind, table] of tables) {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    for (const sql of createTableSql(db.dialect, kind, table)) await db.exec(sql);
  }
  const sources = new Map(kinds.map((k) => [k, keySource(db.dialect, k)]));
  const seconds = new Map(kinds.map((k) => [k, [] as number[]]));
  const bounds = Array.from({ length: SLICES + 1 }, (_, s) => Math.round((options.rows * s) / SLICES));
  for (let s = 0; s < SLICES; s++) {
    const order = kinds.map((_, i) => kinds[(i + s + round) % kinds.length]!);
    for (const kind of order) {
      const table = tables.get(kind)!;
      const keys = sources.get(kind)!;
      const start = performance.now();
      for (let from = bounds[s]!; from < bounds[s + 1]!; from += options.batch) {
        const count = Math.min(options.batch, bounds[s + 1]! - from);
        const ids = keys(count);
        const rows = Array.from({ length: count }, (_, k) => loadRow(from + k, ids?.[k]));
        await db.insertRows(table, ids ? ['id', ...PAYLOAD_COLUMNS] : PAYLOAD_COLUMNS, rows);
      }
      seconds.get(kind)!.push((performance.now() - start) / 1000);
      options.onSlice?.(kind, s);
    }
  }
  for (const [kind, table] of tables) {
    const stored = await db.countRows(table);
    if (stored !== options.rows)
      throw new Error(`${kind}: ${stored} rows stored in ${table}, ${options.rows} loaded`);
  }
  const results: LoadResult[] = [];
  for (const kind of kinds) {
    const t = seconds.get(kind)!;
    results.push({
      kind,
      slices: t.map((sec, s) => (bounds[s + 1]! - bounds[s]!) / sec),
      total: options.rows / sum(t),
      bytes: await db.tableBytes(tables.get(kind)!),
    });
  }
  for (const table of tables.values()) await db.exec(`DROP TABLE ${table}`);
  return results;
}
