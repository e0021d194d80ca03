import { expect, test } from 'vitest';
import type { PathResult } from '../../bench/insert/adapter-overhead.js';
import { instructionsChart, overheadChart, renderSvg } from '../../bench/insert/charts.js';

// Labels as long as the bench's longest, which share their first 40 characters: a limit in pixels
// cut them to the same text, as headless Vega sizes text by an estimate wider than the font.
const paths = [
  { adapter: 'TypeORM', path: 'repository.insert(1000 rows)' },
  { adapter: 'Prisma (extension before a pass-through one)', path: 'createManyAndReturn(1000 rows)' },
  { adapter: 'Prisma (extension before a pass-through one)', path: 'createMany(1000 rows)' },
  { adapter: 'Knex', path: 'insert(1000 rows; 500 on SQLite), fillInPlace' },
];
const labels = paths.map((p) => `${p.adapter} ${p.path}`);

/** The text of each `<text>` element of `svg`, in document order. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
}

test('GIVEN write paths with long labels THEN the instruction chart shows each label whole, in the order of the results', async () => {
  const svg = await renderSvg(
    instructionsChart(
      paths.map((p, i) => ({ ...p, dialect: 'sqlite' as const, vsHandSet: i / 100, otherSql: false })),
    ),
  );
  expect(svg).not.toContain('…');
  expect(texts(svg).filter((t) => labels.includes(t))).toEqual(labels);
});

test('GIVEN write paths with long labels THEN the clock chart, its panels sharing the labels, shows each label whole, in the order of the results, and each legend entry whole', async () => {
  const results = ['postgres', 'mysql'].flatMap((dialect) =>
    paths.map(
      (p) =>
        ({
          ...p,
          dialect,
          vsHandSet: 0.01,
          addedCpu: 0.02,
          otherSql: false,
          vsAutoincrement: 0.1,
        }) as unknown as PathResult,
    ),
  );
  const svg = await renderSvg(overheadChart(results));
  expect(svg).not.toContain('…');
  const shown = texts(svg);
  expect(shown.filter((t) => labels.includes(t))).toEqual(labels);
  expect(shown).toEqual(expect.arrayContaining(['PostgreSQL', 'MariaDB']));
  for (const entry of ['hand-set ids, clock', 'hand-set ids, added CPU', 'autoincrement, clock'])
    expect(shown).toContain(entry);
});
