import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';

/**
 * An OpenTelemetry SDK meter provider whose metrics are read on demand: a periodic reader with an
 * interval no test reaches, flushed by hand into the SDK's in-memory exporter.
 */
export function metricReader() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    meter: provider.getMeter('snowkey-test'),
    /** Collects now; the metrics of this collection by name. */
    async collect(): Promise<Map<string, MetricData>> {
      exporter.reset();
      await reader.forceFlush();
      const out = new Map<string, MetricData>();
      for (const rm of exporter.getMetrics())
        for (const sm of rm.scopeMetrics) for (const m of sm.metrics) out.set(m.descriptor.name, m);
      return out;
    },
    shutdown: () => provider.shutdown(),
  };
}

/** The one point of metric `name` whose attributes are exactly `match`; throws when there is none. */
export function point<T = number>(
  metrics: Map<string, MetricData>,
  name: string,
  match: Record<string, unknown> = {},
): DataPoint<T> {
  const m = metrics.get(name);
  if (!m) throw new Error(`no metric ${name} in [${[...metrics.keys()].join(', ')}]`);
  const found = (m.dataPoints as DataPoint<T>[]).filter(
    (p) =>
      Object.keys(p.attributes).length === Object.keys(match).length &&
      Object.entries(match).every(([k, v]) => p.attributes[k] === v),
  );
  if (found.length !== 1) {
    throw new Error(
      `${found.length} points of ${name} match ${JSON.stringify(match)}: ${JSON.stringify(m.dataPoints)}`,
    );
  }
  return found[0]!;
}

/** The value of a counter or gauge point. */
export const measured = (
  metrics: Map<string, MetricData>,
  name: string,
  match: Record<string, unknown> = {},
) => point<number>(metrics, name, match).value;

/** The count of a histogram point. */
export const countOf = (
  metrics: Map<string, MetricData>,
  name: string,
  match: Record<string, unknown> = {},
) => point<Histogram>(metrics, name, match).value.count;

/** Every point of a metric (none when the metric was not reported). */
export const pointsOf = (metrics: Map<string, MetricData>, name: string) =>
  (metrics.get(name)?.dataPoints ?? []) as DataPoint<unknown>[];
