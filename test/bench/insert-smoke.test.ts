import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { selectedDialects } from '../helpers/databases.js';
import { runBenchScript } from './run-bench-script.js';

// The insert benchmark is never part of the test run; this smoke run of it (a few thousand rows,
// every key kind, and Knex's write paths, the quickest adapter to start, on the selected databases)
// is, so it cannot rot. The bench itself checks with COUNT(*) that every load stored what it wrote.

const out = mkdtempSync(join(tmpdir(), 'sk-bench-insert-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('GIVEN a smoke-sized run THEN every key kind and every Knex write path are measured on every selected database, and the report, results and charts are written', async () => {
  const dialects = selectedDialects();
  const stdout = await runBenchScript('bench/insert/insert.bench.ts', [
    ...['--rows', '2000', '--rounds', '1', '--dialects', dialects.join(',')],
    ...['--adapters', 'knex', '--adapter-rows', '200', '--single-rows', '3', '--adapter-rounds', '1'],
    ...['--out', out],
  ]);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    loads: { dialect: string; kinds: { kind: string; total: number; slices: number[] }[] }[];
    overhead: {
      dialect: string;
      adapter: string;
      path: string;
      rowsPerSecond: Record<string, number>;
      vsHandSet: number;
      addedCpu: number;
      otherSql: boolean;
      rounds: Record<string, { wall: number; cpu: number }>[];
    }[];
  };
  expect(results.loads.map((l) => l.dialect)).toEqual(dialects);
  for (const load of results.loads) {
    const kinds = load.kinds.map((k) => k.kind);
    expect(kinds).toEqual(
      load.dialect === 'sqlite'
        ? ['autoincrement', 'snowkey', 'snowkey-guarded', 'snowkey-bigint-pk', 'uuidv4', 'uuidv7']
        : ['autoincrement', 'snowkey', 'uuidv4', 'uuidv7'],
    );
    for (const k of load.kinds) {
      expect(k.slices).toHaveLength(10);
      expect(k.total).toBeGreaterThan(0);
    }
  }
  for (const dialect of dialects) {
    expect(results.overhead.filter((r) => r.dialect === dialect).map((r) => r.path)).toEqual([
      'insert(1000 rows; 500 on SQLite)',
      'insert(1000 rows; 500 on SQLite), fillInPlace',
      'batchInsert(rows, 1000; 500 on SQLite)',
      'insert(1 row)',
    ]);
  }
  for (const r of results.overhead) {
    expect(Object.keys(r.rowsPerSecond).sort()).toEqual(['autoincrement', 'hand-set', 'snowkey']);
    // One measured round (--adapter-rounds 1): wall and CPU time of each variant, and the figures from them.
    expect(r.rounds).toHaveLength(1);
    for (const variant of ['autoincrement', 'hand-set', 'snowkey']) {
      expect(r.rounds[0]![variant]!.wall).toBeGreaterThan(0);
      expect(r.rounds[0]![variant]!.cpu).toBeGreaterThan(0);
    }
    const { snowkey, 'hand-set': hand } = r.rounds[0]!;
    expect(r.addedCpu).toBeCloseTo((snowkey!.cpu - hand!.cpu) / hand!.wall, 9);
    expect(r.vsHandSet).toBeCloseTo(snowkey!.wall / hand!.wall - 1, 9);
    expect(r.otherSql).toBe(false);
  }
  expect(readFileSync(join(out, 'insert-curves.svg'), 'utf8')).toMatch(
    /^<svg[^>]*>.*PostgreSQL|MariaDB|SQLite/s,
  );
  expect(readFileSync(join(out, 'adapter-overhead.svg'), 'utf8')).toMatch(/^<svg/);
  expect(stdout).toContain('| database');
}, 120_000);
