import {
  type Attributes,
  type BatchObservableResult,
  type Meter,
  metrics,
  type Observable,
} from '@opentelemetry/api';
import { InvalidArgumentError } from '../errors.js';
import type { LeaseEvent, LeaseStats } from '../lease/lease-stats.js';
import type { SegmentRunway } from '../segment/runway.js';
import type { SegmentEvent, SegmentStats } from '../segment/segment-stats.js';
import type { SnowflakeEvent, SnowflakeStats } from '../snowflake-stats.js';
import { SnowkeyInstruments } from './instruments.js';

/** A `Snowflake`, `NodeLease` or `SegmentAllocator`, or anything with their `stats()` and `subscribe()`. */
export type MetricSource =
  | { stats(): SnowflakeStats; subscribe(listener: (event: SnowflakeEvent) => void): () => void }
  | { stats(): LeaseStats; subscribe(listener: (event: LeaseEvent) => void): () => void }
  | {
      stats(): SegmentStats;
      subscribe(listener: (event: SegmentEvent) => void): () => void;
      runway(): SegmentRunway;
    };

/** Options of {@link snowkeyMetrics}. */
export interface SnowkeyMetricsOptions {
  /** The meter for the instruments. Default `metrics.getMeter('@snowkey/core')` (the global provider). */
  meter?: Meter;
  /** Attributes added to every measurement of these sources, e.g. `{ 'service.name': 'game' }`. */
  attributes?: Attributes;
}

/**
 * Reports generators, leases and segment allocators through OpenTelemetry metrics, read when the
 * SDK collects (`nextId()` is untouched); returns the function that stops reporting.
 *
 * @example
 * const stop = snowkeyMetrics([gen, lease, orders]); // stop() on shutdown
 */
export function snowkeyMetrics(
  sources: MetricSource | readonly MetricSource[],
  options: SnowkeyMetricsOptions = {},
): () => void {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object such as { meter }', options);
  }
  const list: readonly MetricSource[] = Array.isArray(sources) ? sources : [sources as MetricSource];
  list.forEach(checkSource);
  const meter = options.meter ?? metrics.getMeter('@snowkey/core');
  if (meter === null || typeof meter !== 'object' || typeof meter.createHistogram !== 'function') {
    throw new InvalidArgumentError('meter', 'an OpenTelemetry Meter (metrics.getMeter(name))', meter);
  }
  const registry = registryOf(meter);
  const added = list.map((source) => registry.add(source, options.attributes ?? {}));
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const entry of added) registry.remove(entry);
  };
}

function checkSource(source: unknown, index: number): void {
  const s = source as Partial<{ stats: unknown; subscribe: unknown }> | null;
  const kind =
    s !== null && typeof s === 'object' && typeof s.stats === 'function' && typeof s.subscribe === 'function'
      ? (s as { stats(): { kind?: unknown } }).stats().kind
      : undefined;
  if (kind !== 'snowflake' && kind !== 'lease' && kind !== 'segment') {
    throw new InvalidArgumentError(
      `sources[${index}]`,
      'a Snowflake, a NodeLease or a SegmentAllocator (an object with stats() and subscribe())',
      source,
    );
  }
}

interface Entry {
  readonly source: MetricSource;
  readonly attributes: Attributes;
  readonly unsubscribe: () => void;
}

const registries = new WeakMap<Meter, MeterRegistry>();

function registryOf(meter: Meter): MeterRegistry {
  let registry = registries.get(meter);
  if (!registry) {
    registry = new MeterRegistry(meter);
    registries.set(meter, registry);
  }
  return registry;
}

/** The instruments of one meter and the sources reported through it, read by one batch callback. */
class MeterRegistry {
  readonly #meter: Meter;
  readonly #i: SnowkeyInstruments;
  readonly #entries = new Set<Entry>();
  /** Leases whose acquisition was recorded: once per lease, however often it is added. */
  readonly #acquisitions = new WeakSet<object>();
  readonly #callback = (result: BatchObservableResult) => this.#observe(result);
  #registered = false;

  constructor(meter: Meter) {
    this.#meter = meter;
    this.#i = new SnowkeyInstruments(meter);
  }

  add(source: MetricSource, extra: Attributes): Entry {
    const stats = source.stats();
    const i = this.#i;
    let entry: Entry;
    if (stats.kind === 'snowflake') {
      const attributes = { ...extra, 'snowkey.node.id': stats.nodeId, 'snowkey.layout': stats.layout };
      const unsubscribe = (source as { subscribe(l: (e: SnowflakeEvent) => void): () => void }).subscribe(
        (e) => i.clockWaitDuration.record(e.ms / 1000, attributes),
      );
      entry = { source, attributes, unsubscribe };
    } else if (stats.kind === 'lease') {
      const attributes = { ...extra, 'snowkey.node.id': stats.nodeId, 'snowkey.lease.table': stats.table };
      if (!this.#acquisitions.has(source)) {
        this.#acquisitions.add(source);
        i.leaseAcquisitionDuration.record(stats.acquireMs / 1000, attributes);
      }
      const unsubscribe = (source as { subscribe(l: (e: LeaseEvent) => void): () => void }).subscribe((e) =>
        i.leaseRenewalDuration.record(e.ms / 1000, withError(attributes, e.error)),
      );
      entry = { source, attributes, unsubscribe };
    } else {
      const attributes = { ...extra, 'snowkey.segment.tag': stats.tag };
      const unsubscribe = (source as { subscribe(l: (e: SegmentEvent) => void): () => void }).subscribe(
        (e) => {
          if (e.type === 'refill')
            i.segmentRefillDuration.record(e.ms / 1000, withError(attributes, e.error));
          else i.segmentWaitDuration.record(e.ms / 1000, attributes);
        },
      );
      entry = { source, attributes, unsubscribe };
    }
    this.#entries.add(entry);
    if (!this.#registered) {
      this.#meter.addBatchObservableCallback(this.#callback, this.#i.observables);
      this.#registered = true;
    }
    return entry;
  }

  remove(entry: Entry): void {
    if (!this.#entries.delete(entry)) return;
    entry.unsubscribe();
    if (this.#entries.size === 0 && this.#registered) {
      this.#meter.removeBatchObservableCallback(this.#callback, this.#i.observables);
      this.#registered = false;
    }
  }

  #observe(result: BatchObservableResult): void {
    const i = this.#i;
    const out = new Observations();
    for (const { source, attributes: a } of this.#entries) {
      let stats: SnowflakeStats | LeaseStats | SegmentStats;
      try {
        stats = source.stats();
      } catch {
        continue; // a source that cannot report skips this collection; the others still do
      }
      if (stats.kind === 'snowflake') {
        out.sum(i.idsIssued, stats.idsIssued, a);
        out.sum(i.sequenceOverflows, stats.sequenceOverflows, a);
        out.sum(i.clockBorrows, stats.borrows, a);
        out.sum(i.fenceTrips, stats.fenceTrips, a);
        out.last(i.clockLead, Math.max(0, stats.lastTimestamp - stats.at) / 1000, a);
      } else if (stats.kind === 'lease') {
        const held = stats.state === 'held';
        out.sum(i.leasesHeld, held ? 1 : 0, a);
        if (held) out.last(i.leaseTimeToExpiry, (stats.expiresAt - stats.at) / 1000, a);
      } else {
        out.sum(i.idsIssued, stats.idsIssued, a);
        out.sum(i.segmentBuffered, stats.buffered, a);
        out.sum(i.segmentUnavailable, stats.unavailable, a);
        out.last(i.segmentStep, stats.step, a);
        const runway = (source as { runway(): SegmentRunway }).runway();
        out.last(i.segmentRemaining, Number(runway.remainingIds), a);
        if (runway.msLeft !== undefined) out.last(i.segmentRunway, runway.msLeft / 1000, a);
      }
    }
    out.report(result);
  }
}

/** One collection's values: counts of sources sharing an attribute set add up; gauges keep the last. */
class Observations {
  readonly #values = new Map<Observable, Map<string, { value: number; attributes: Attributes }>>();

  sum(instrument: Observable, value: number, attributes: Attributes): void {
    this.#put(instrument, value, attributes, true);
  }

  last(instrument: Observable, value: number, attributes: Attributes): void {
    this.#put(instrument, value, attributes, false);
  }

  #put(instrument: Observable, value: number, attributes: Attributes, add: boolean): void {
    let byKey = this.#values.get(instrument);
    if (!byKey) {
      byKey = new Map();
      this.#values.set(instrument, byKey);
    }
    const key = JSON.stringify(Object.entries(attributes).sort(([x], [y]) => (x < y ? -1 : 1)));
    const seen = byKey.get(key);
    if (seen && add) seen.value += value;
    else byKey.set(key, { value, attributes });
  }

  report(result: BatchObservableResult): void {
    for (const [instrument, byKey] of this.#values) {
      for (const { value, attributes } of byKey.values()) result.observe(instrument, value, attributes);
    }
  }
}

function withError(attributes: Attributes, error: Error | undefined): Attributes {
  return error === undefined ? attributes : { ...attributes, 'error.type': error.name };
}
