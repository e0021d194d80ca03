import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { medianRoundVsHandSet } from '../../bench/insert/report.js';
import { runBenchScript } from './run-bench-script.js';

// The instruction-count bench runs Node under valgrind; this smoke run (one adapter on SQLite, a few
// rows, one warm-up round and one counted, in two processes per variant whose rounds are joined)
// keeps it from rotting. It needs valgrind and vgdb, which .ci/run installs.

const out = mkdtempSync(join(tmpdir(), 'sk-bench-instructions-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('GIVEN a smoke-sized run under callgrind THEN every Knex write path on SQLite is counted in its three variants, one round in each of two processes, and the report, results and chart are written', async () => {
  const stdout = await runBenchScript('bench/insert/instructions.bench.ts', [
    ...['--dialects', 'sqlite', '--adapters', 'knex', '--warmup', '1', '--single-warmup', '1'],
    ...['--rounds', '1', '--processes', '2'],
    ...['--adapter-rows', '40', '--single-rows', '2', '--out', out, '--quiet'],
  ]);
  const { results } = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    results: {
      dialect: string;
      adapter: string;
      path: string;
      rowsPerWrite: number;
      perRow: Record<string, number>;
      vsHandSet: number;
      vsHandSetAll: number;
      rounds: Record<string, { total: number; compiling: number; collecting: number }>[];
    }[];
  };
  expect(results.map((r) => `${r.dialect} ${r.adapter} ${r.path}`)).toEqual([
    'sqlite Knex insert(1000 rows; 500 on SQLite)',
    'sqlite Knex insert(1000 rows; 500 on SQLite), fillInPlace',
    'sqlite Knex batchInsert(rows, 1000; 500 on SQLite)',
    'sqlite Knex insert(1 row)',
  ]);
  for (const r of results) {
    expect(r.rowsPerWrite).toBe(r.path === 'insert(1 row)' ? 2 : 40);
    expect(r.rounds).toHaveLength(2);
    const counted = (round: (typeof r.rounds)[number], v: string) =>
      round[v]!.total - round[v]!.compiling - round[v]!.collecting;
    const run = (v: string) => r.rounds.reduce((n, round) => n + counted(round, v), 0);
    const all = (v: string) => r.rounds.reduce((n, round) => n + round[v]!.total, 0);
    for (const variant of ['autoincrement', 'hand-set', 'snowkey']) {
      for (const round of r.rounds) {
        // A write through an ORM into SQLite is tens of thousands of instructions a row at least.
        expect(counted(round, variant)).toBeGreaterThan(10_000 * r.rowsPerWrite);
        expect(round[variant]!.compiling).toBeGreaterThanOrEqual(0);
        expect(round[variant]!.collecting).toBeGreaterThanOrEqual(0);
      }
      expect(r.perRow[variant]).toBeCloseTo(run(variant) / (2 * r.rowsPerWrite), 6);
    }
    expect(r.vsHandSet).toBeCloseTo(run('snowkey') / run('hand-set') - 1, 9);
    // Two rounds: the median round is the mean of their two ratios.
    const ratio = (round: (typeof r.rounds)[number]) =>
      counted(round, 'snowkey') / counted(round, 'hand-set') - 1;
    expect(medianRoundVsHandSet(r as unknown as Parameters<typeof medianRoundVsHandSet>[0])).toBeCloseTo(
      (ratio(r.rounds[0]!) + ratio(r.rounds[1]!)) / 2,
      9,
    );
    expect(r.vsHandSetAll).toBeCloseTo(all('snowkey') / all('hand-set') - 1, 9);
  }
  expect(readFileSync(join(out, 'adapter-instructions.svg'), 'utf8')).toMatch(/^<svg.*SQLite/s);
  expect(stdout).toMatch(/snowkey within 3% of hand-set ids .*: \d of 4 write paths/);
  expect(stdout).toMatch(/by the median round instead of the sum: \d of 4 write paths/);
  expect(stdout).toMatch(/\| median round \|/);

  // Two runs joined: the second's copy of a path replaces the first's, and both commands are kept.
  const second = join(out, 'second.json');
  const first = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    results: { vsHandSet: number }[];
  };
  first.results[0]!.vsHandSet = 0.5;
  // An adapter the bench lists before Knex, counted by the later run, is listed before Knex.
  const typeorm = { ...results[3]!, adapter: 'TypeORM', path: 'repository.insert(1 row)' };
  writeFileSync(
    second,
    JSON.stringify({
      ...first,
      results: [...first.results, typeorm],
      command: 'second run',
      started: 'later',
    }),
  );
  const merged = join(out, 'merged');
  await runBenchScript('bench/insert/instructions-merge.ts', [
    '--out',
    merged,
    join(out, 'results.json'),
    second,
  ]);
  const joined = JSON.parse(readFileSync(join(merged, 'results.json'), 'utf8')) as {
    commands: { command: string }[];
    results: { path: string; vsHandSet: number }[];
  };
  expect(joined.commands.map((c) => c.command)).toEqual([
    expect.stringMatching(/^pnpm bench:insert:instructions /),
    'second run',
  ]);
  expect(joined.results.map((r) => r.path)).toEqual([
    'repository.insert(1 row)',
    ...results.map((r) => r.path),
  ]);
  expect(joined.results[1]!.vsHandSet).toBe(0.5);
  expect(readFileSync(join(merged, 'report.md'), 'utf8')).toMatch(/\|\s+\+50\.0% \|/);
  expect(readFileSync(join(merged, 'adapter-instructions.svg'), 'utf8')).toMatch(/^<svg/);
}, 900_000);
