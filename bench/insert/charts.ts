import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { PathResult } from './adapter-overhead.js';
import { type BenchDialect, DATABASE_NAME } from './bench-database.js';
import type { DialectLoads } from './raw-load.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** One panel per database, in the reports' order. */
const BY_DATABASE = {
  column: { field: 'database', type: 'nominal', title: null, sort: Object.values(DATABASE_NAME) },
} as const;
/** Write-path labels in the results' order, each whole (headless Vega over-estimates text width). */
const PATH_AXIS = {
  field: 'path',
  type: 'nominal',
  title: null,
  sort: null,
  axis: { labelLimit: 0 },
} as const;

/** Renders a Vega-Lite spec to an SVG string, headless (no canvas, no browser). */
export async function renderSvg(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Rows/s of each tenth of the load (median over the rounds), a line per key kind, a panel per database. */
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
    $schema: SCHEMA,
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

/** Per write path, snowkey's extra time against hand-set ids (clock, added CPU) and autoincrement. */
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
    $schema: SCHEMA,
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

/** Per write path sending the same SQL both ways, snowkey's extra instructions per row against hand-set ids. */
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
      overhead: Math.round(r.vsHandSet * 1000) / 10, // a percentage to a tenth
    }));
  return {
    $schema: SCHEMA,
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
