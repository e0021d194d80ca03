import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { PathResult } from './adapter-overhead.js';
import { type BenchDialect, DATABASE_NAME } from './bench-database.js';
import type { DialectLoads } from './report.js';

/** One panel per database, in the reports' order. */
const BY_DATABASE = {
  column: { field: 'database', type: 'nominal', title: null, sort: Object.values(DATABASE_NAME) },
} as const;

/**
 * The axis of labels down the side of the per-path (and per-route) charts, in the order of the
 * results (the reports' tables), each label whole: headless, Vega sizes text by an estimate of 0.8 em a character, which
 * is wider than the font draws it, so a limit in pixels cut labels such as "Prisma (extension vs a
 * pass-through one) createMany(1000 rows)" to the same first 40 characters.
 */
const labelAxis = <F extends string>(field: F) =>
  ({ field, type: 'nominal', title: null, sort: null, axis: { labelLimit: 0 } }) as const;
const PATH_AXIS = labelAxis('path');

/** A share (0.034) as the percentage the instruction chart plots, to a tenth (3.4). */
const percent = (share: number) => Math.round(share * 1000) / 10;

/** Renders a Vega-Lite spec to an SVG string, headless (no canvas, no browser). */
export async function renderSvg(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Rows/s over the load, one line per key kind, one panel per database: the median over the
 * rounds of each tenth of the load, plotted at the share of the load it ends at.
 */
export function curvesChart(loads: readonly DialectLoads[], rows: number): vl.TopLevelSpec {
  const values = loads.flatMap(({ dialect, kinds }) =>
    kinds.flatMap(({ kind, slices }) =>
      slices.map((rowsPerSecond, s) => ({
        database: DATABASE_NAME[dialect],
        key: kind,
        loaded: Math.round(((s + 1) * rows) / slices.length),
        rowsPerSecond: Math.round(rowsPerSecond),
      })),
    ),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `Insert rate as the table grows (${rows.toLocaleString('en-US')} rows, raw drivers, median of the rounds)`,
    data: { values },
    facet: BY_DATABASE,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 260,
      height: 220,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'loaded', type: 'quantitative', title: 'rows in the table' },
        y: {
          field: 'rowsPerSecond',
          type: 'quantitative',
          title: 'rows/s over that tenth',
          scale: { zero: true },
        },
        color: { field: 'key', type: 'nominal', title: 'key' },
      },
    },
  };
}

/**
 * What the adapter costs: per write path, snowkey's time against hand-set ids in the same ORM (by
 * the clock, and the CPU it adds as a share of the insert's time) and against autoincrement, one
 * panel per database (negative: snowkey was faster).
 */
export function overheadChart(results: readonly PathResult[]): vl.TopLevelSpec {
  const values = results.flatMap((r) => {
    const at = { database: DATABASE_NAME[r.dialect], path: `${r.adapter} ${r.path}` };
    return [
      { ...at, against: 'hand-set ids, clock', overhead: r.vsHandSet * 100 },
      ...(r.sameStatements
        ? [{ ...at, against: 'hand-set ids, added CPU', overhead: r.addedCpu * 100 }]
        : []),
      { ...at, against: 'autoincrement, clock', overhead: r.vsAutoincrement * 100 },
    ];
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Time of a snowkey insert against the same ORM with hand-set ids and with autoincrement (%)',
    data: { values },
    facet: BY_DATABASE,
    spec: {
      width: 200,
      height: { step: 14 },
      mark: 'bar',
      encoding: {
        y: PATH_AXIS,
        yOffset: { field: 'against' },
        x: { field: 'overhead', type: 'quantitative', title: 'extra time (%)' },
        color: { field: 'against', type: 'nominal', title: 'against', legend: { labelLimit: 0 } },
      },
    },
  };
}

/**
 * What each adapter adds, counted in instructions: per write path, snowkey's instructions per row
 * against hand-set ids in the same ORM, one panel per database (compilers and garbage collector left out; paths whose
 * hand-set variant sends other SQL are left out too).
 */
export function instructionsChart(
  results: readonly {
    dialect: BenchDialect;
    adapter: string;
    path: string;
    vsHandSet: number;
    sameStatements: boolean;
  }[],
): vl.TopLevelSpec {
  const values = results
    .filter((r) => r.sameStatements)
    .map((r) => ({
      database: DATABASE_NAME[r.dialect],
      path: `${r.adapter} ${r.path}`,
      overhead: percent(r.vsHandSet),
    }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Instructions of a snowkey insert against the same ORM with hand-set ids (%), under callgrind',
    data: { values },
    facet: BY_DATABASE,
    spec: {
      width: 200,
      height: { step: 14 },
      layer: [
        {
          mark: 'bar',
          encoding: {
            y: PATH_AXIS,
            x: { field: 'overhead', type: 'quantitative', title: 'extra instructions per row (%)' },
          },
        },
        { mark: { type: 'rule', color: 'firebrick', strokeDash: [4, 3] }, encoding: { x: { datum: 3 } } },
      ],
    },
  };
}
