import { median, sum } from '../measure.js';
import type { BenchDatabase, BenchDialect } from './bench-database.js';
import { createTableSql, type KeyKind, keySource, PAYLOAD_COLUMNS, payloadRow } from './tables.js';

/** One kind's load: rows/s over each tenth and over the whole, and the table's size. */
interface LoadResult {
  readonly kind: KeyKind;
  readonly slices: readonly number[];
  readonly total: number;
  readonly bytes: { readonly data: number; readonly index: number };
}

/** One key kind's loads on one database: medians over the rounds (the ratio paired round by round). */
export interface DialectLoads {
  readonly dialect: BenchDialect;
  readonly kinds: readonly (LoadResult & { readonly vsAutoincrement: number })[];
}

const SLICES = 10;

/** Loads a fresh table per key kind a tenth at a time, kinds interleaved in rotating order. */
async function rawLoad(
  db: BenchDatabase,
  kinds: readonly KeyKind[],
  round: number,
  rows: number,
  batch: number,
  onSlice: (kind: KeyKind, slice: number) => void,
): Promise<LoadResult[]> {
  const tables = new Map(kinds.map((k) => [k, `bench_${k.replace(/-/g, '_')}_${round}`]));
  for (const [kind, table] of tables) {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    for (const sql of createTableSql(db.dialect, kind, table)) await db.exec(sql);
  }
  const sources = new Map(kinds.map((k) => [k, keySource(db.dialect, k)]));
  const seconds = new Map(kinds.map((k) => [k, [] as number[]]));
  const bounds = Array.from({ length: SLICES + 1 }, (_, s) => Math.round((rows * s) / SLICES));
  for (let s = 0; s < SLICES; s++) {
    for (const kind of kinds.map((_, i) => kinds[(i + s + round) % kinds.length]!)) {
      const keys = sources.get(kind)!;
      const start = performance.now();
      for (let from = bounds[s]!; from < bounds[s + 1]!; from += batch) {
        const count = Math.min(batch, bounds[s + 1]! - from);
        const ids = keys(count);
        const values = Array.from({ length: count }, (_, k) => {
          const [ownerId, name, score, createdAt] = payloadRow(from + k);
          return ids ? [ids[k], ownerId, name, score, createdAt] : [ownerId, name, score, createdAt];
        });
        await db.insertRows(tables.get(kind)!, ids ? ['id', ...PAYLOAD_COLUMNS] : PAYLOAD_COLUMNS, values);
      }
      seconds.get(kind)!.push((performance.now() - start) / 1000);
      onSlice(kind, s);
    }
  }
  const results: LoadResult[] = [];
  for (const [kind, table] of tables) {
    const stored = await db.countRows(table);
    if (stored !== rows) throw new Error(`${kind}: ${stored} rows stored in ${table}, ${rows} loaded`);
    const t = seconds.get(kind)!;
    const slices = t.map((sec, s) => (bounds[s + 1]! - bounds[s]!) / sec);
    results.push({ kind, slices, total: rows / sum(t), bytes: await db.tableBytes(table) });
  }
  for (const table of tables.values()) await db.exec(`DROP TABLE ${table}`);
  return results;
}

/** `rounds` raw loads of every kind on `db`, summarised: medians over the rounds. */
export async function rawLoads(
  db: BenchDatabase,
  kinds: readonly KeyKind[],
  options: { rounds: number; rows: number; batch: number; progress: (line: string) => void },
): Promise<DialectLoads> {
  const rounds: LoadResult[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const onSlice = (kind: string, s: number) =>
      options.progress(`${db.dialect} raw round ${round + 1}/${options.rounds} ${kind} ${(s + 1) * 10}%`);
    rounds.push(await rawLoad(db, kinds, round, options.rows, options.batch, onSlice));
  }
  const of = (kind: KeyKind) => rounds.map((round) => round.find((r) => r.kind === kind)!);
  const auto = of('autoincrement');
  return {
    dialect: db.dialect,
    kinds: kinds.map((kind) => {
      const loads = of(kind);
      const m = (f: (l: LoadResult) => number) => median(loads.map(f));
      return {
        kind,
        slices: loads[0]!.slices.map((_, s) => m((l) => l.slices[s]!)),
        total: m((l) => l.total),
        vsAutoincrement: auto[0] ? median(loads.map((l, i) => l.total / auto[i]!.total)) : Number.NaN,
        bytes: { data: m((l) => l.bytes.data), index: m((l) => l.bytes.index) },
      };
    }),
  };
}
