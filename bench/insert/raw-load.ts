import type { TestDatabase } from '@snowkey/test-harness';
import type { Dialect } from '../fresh-database.js';
import { median, sum } from '../measure.js';
import { countRows, tableBytes } from './bench-database.js';
import { progress } from './cli-options.js';
import { openRawDriver, type RawDriver } from './raw-driver.js';
import { createTableSql, type KeyKind, keyKinds, keySource, PAYLOAD_COLUMNS, payloadRow } from './tables.js';

const [BATCH, SLICES] = [1000, 10];

/** One key kind's load: rows/s over each tenth and over the whole, and the table's size. */
type Load = { kind: KeyKind; slices: number[]; total: number; bytes: { data: number; index: number } };

/** Every key kind's loads on one database, medians over the rounds (the ratio paired round by round). */
export type DialectLoads = { dialect: Dialect; kinds: (Load & { vsAutoincrement: number })[] };

/** Loads a fresh table per key kind a tenth at a time, the kinds interleaved in rotating order. */
async function rawLoad(db: TestDatabase, driver: RawDriver, kinds: KeyKind[], round: number, rows: number) {
  const table = (kind: KeyKind) => `bench_${kind.replace(/-/g, '_')}_${round}`;
  for (const kind of kinds)
    for (const sql of createTableSql(db.dialect, kind, table(kind))) await db.query(sql);
  const sources = kinds.map((k) => keySource(db.dialect, k));
  const seconds = kinds.map((): number[] => []);
  const bounds = Array.from({ length: SLICES + 1 }, (_, s) => Math.round((rows * s) / SLICES));
  for (let s = 0; s < SLICES; s++) {
    for (let j = 0; j < kinds.length; j++) {
      const k = (j + s + round) % kinds.length;
      const start = performance.now();
      for (let from = bounds[s]!; from < bounds[s + 1]!; from += BATCH) {
        const n = Math.min(BATCH, bounds[s + 1]! - from);
        const ids = sources[k]!(n);
        const values = Array.from({ length: n }, (_, i) => {
          const row = payloadRow(from + i);
          return ids ? [ids[i], row[0], row[1], row[2], row[3]] : row;
        });
        await driver.insertRows(table(kinds[k]!), ids ? ['id', ...PAYLOAD_COLUMNS] : PAYLOAD_COLUMNS, values);
      }
      seconds[k]!.push((performance.now() - start) / 1000);
    }
    progress(`${db.dialect} raw load round ${round + 1}: ${(s + 1) * 10}%`);
  }
  const loads: Load[] = [];
  for (const [k, kind] of kinds.entries()) {
    const stored = await countRows(db, table(kind));
    if (stored !== rows) throw new Error(`${kind}: ${stored} rows stored, ${rows} loaded`);
    const slices = seconds[k]!.map((sec, s) => (bounds[s + 1]! - bounds[s]!) / sec);
    loads.push({ kind, slices, total: rows / sum(seconds[k]!), bytes: await tableBytes(db, table(kind)) });
    await db.query(`DROP TABLE ${table(kind)}`);
  }
  return loads;
}

/** `rounds` raw loads of every key kind on `db`, each in fresh tables. */
export async function rawLoads(db: TestDatabase, rows: number, rounds: number): Promise<DialectLoads> {
  const kinds = keyKinds(db.dialect);
  const loads: Load[][] = [];
  const driver = await openRawDriver(db);
  try {
    for (let round = 0; round < rounds; round++) loads.push(await rawLoad(db, driver, kinds, round, rows));
  } finally {
    await driver.end();
  }
  const m = (k: number, f: (l: Load) => number) => median(loads.map((round) => f(round[k]!)));
  return {
    dialect: db.dialect,
    kinds: kinds.map((kind, k) => ({
      kind,
      slices: loads[0]![k]!.slices.map((_, s) => m(k, (l) => l.slices[s]!)),
      total: m(k, (l) => l.total),
      vsAutoincrement: median(loads.map((round) => round[k]!.total / round[0]!.total)),
      bytes: { data: m(k, (l) => l.bytes.data), index: m(k, (l) => l.bytes.index) },
    })),
  };
}
