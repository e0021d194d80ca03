import * as vega from 'vega';
import * as vl from 'vega-lite';
import { DATABASE_NAME } from '../fresh-database.js';
import type { PathResult } from './adapter-overhead.js';
import type { DialectLoads } from './raw-load.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const BY_DATABASE = {
  column: { field: 'database', type: 'nominal', title: null, sort: Object.values(DATABASE_NAME) },
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
      slices.map((rate, s) => ({
        database: DATABASE_NAME[dialect],
        key: kind,
        loaded: Math.round(((s + 1) * rows) / slices.length),
        rowsPerSecond: Math.round(rate),
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
        y: { field: 'rowsPerSecond', type: 'quantitative', title: 'rows/s over that tenth' },
        color: { field: 'key', type: 'nominal', title: 'key' },
      },
    },
  };
}

type BarValue = { database: string; path: string; overhead: number; against?: string };

/** Horizontal bars of `overhead` (%) per write path, a panel per database; `layer` adds marks over them. */
function barsChart(title: string, axis: string, values: BarValue[], layer: vl.TopLevelSpec[] = []) {
  const against = values[0]?.against !== undefined;
  const bars = {
    mark: 'bar',
    encoding: {
      // Write paths in the results' order, each label whole (headless Vega over-estimates text width).
      y: { field: 'path', type: 'nominal', title: null, sort: null, axis: { labelLimit: 0 } },
      x: { field: 'overhead', type: 'quantitative', title: axis },
      ...(against && {
        yOffset: { field: 'against' },
        color: { field: 'against', type: 'nominal', title: 'against', legend: { labelLimit: 0 } },
      }),
    },
  };
  return {
    $schema: SCHEMA,
    title,
    data: { values },
    facet: BY_DATABASE,
    spec: { width: 200, height: { step: 14 }, layer: [bars, ...layer] },
  } as vl.TopLevelSpec;
}

type Bar = Pick<PathResult, 'dialect' | 'adapter' | 'path' | 'vsHandSet' | 'otherSql'>;
const at = (r: Bar) => ({ database: DATABASE_NAME[r.dialect], path: `${r.adapter} ${r.path}` });

/** Per write path, snowkey's extra time against hand-set ids (clock, added CPU) and autoincrement. */
export function overheadChart(results: readonly PathResult[]): vl.TopLevelSpec {
  const values = results.flatMap((r) => [
    { ...at(r), against: 'hand-set ids, clock', overhead: r.vsHandSet * 100 },
    ...(r.otherSql ? [] : [{ ...at(r), against: 'hand-set ids, added CPU', overhead: r.addedCpu * 100 }]),
    { ...at(r), against: 'autoincrement, clock', overhead: r.vsAutoincrement * 100 },
  ]);
  const title = 'Time of a snowkey insert against the same ORM with hand-set ids and with autoincrement (%)';
  return barsChart(title, 'extra time (%)', values);
}

/** Per write path sending the same SQL both ways, snowkey's extra instructions per row against hand-set ids, and the 3% line. */
export function instructionsChart(results: readonly Bar[]): vl.TopLevelSpec {
  const values = results
    .filter((r) => !r.otherSql)
    .map((r) => ({ ...at(r), overhead: Math.round(r.vsHandSet * 1000) / 10 }));
  const rule = {
    mark: { type: 'rule', color: 'firebrick', strokeDash: [4, 3] },
    encoding: { x: { datum: 3 } },
  };
  const title =
    'Instructions of a snowkey insert against the same ORM with hand-set ids (%), under callgrind';
  return barsChart(title, 'extra instructions per row (%)', values, [rule as vl.TopLevelSpec]);
}
