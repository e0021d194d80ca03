import { type Histogram, type Meter, type Observable, ValueType } from '@opentelemetry/api';

/**
 * Bucket boundaries for snowkey's durations, in seconds: from 10 µs (a wait for the clock's next
 * millisecond) to 10 s (a database that hangs).
 */
const DURATION_BUCKETS = [
  0.00001, 0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * Every instrument snowkey reports, created once per meter. Names and units follow the
 * OpenTelemetry semantic conventions: dotted lower-case names under `snowkey.`, annotations in
 * braces for counts (`{id}`), `s` for durations, counters for what only grows, up-down counters
 * for quantities that add up across processes, gauges for the rest. docs/guide/observability.md lists them.
 */
export class SnowkeyInstruments {
  readonly idsIssued: Observable;
  readonly sequenceOverflows: Observable;
  readonly clockBorrows: Observable;
  readonly clockLead: Observable;
  readonly fenceTrips: Observable;
  readonly leasesHeld: Observable;
  readonly leaseTimeToExpiry: Observable;
  readonly segmentBuffered: Observable;
  readonly segmentStep: Observable;
  readonly segmentRemaining: Observable;
  readonly segmentRunway: Observable;
  readonly segmentUnavailable: Observable;
  readonly clockWaitDuration: Histogram;
  readonly leaseAcquisitionDuration: Histogram;
  readonly leaseRenewalDuration: Histogram;
  readonly segmentRefillDuration: Histogram;
  readonly segmentWaitDuration: Histogram;

  constructor(meter: Meter) {
    const int = ValueType.INT;
    const double = ValueType.DOUBLE;
    this.idsIssued = meter.createObservableCounter('snowkey.ids.issued', {
      unit: '{id}',
      description: 'Ids issued by a Snowflake generator or a segment allocator.',
      valueType: int,
    });
    this.sequenceOverflows = meter.createObservableCounter('snowkey.sequence.overflows', {
      unit: '{overflow}',
      description:
        'Time units whose sequence ran out before the clock moved on (each one a clock wait or a borrow).',
      valueType: int,
    });
    this.clockBorrows = meter.createObservableCounter('snowkey.clock.borrows', {
      unit: '{borrow}',
      description: "Overflows that took the next time unit ahead of the clock (sequenceOverflow: 'borrow').",
      valueType: int,
    });
    this.clockLead = meter.createObservableGauge('snowkey.clock.lead', {
      unit: 's',
      description: "How far the last id's timestamp is ahead of the generator's clock (borrowed time).",
      valueType: double,
    });
    this.fenceTrips = meter.createObservableCounter('snowkey.fence.trips', {
      unit: '{trip}',
      description: 'Ids refused by the fence because the lease expired, was lost or was released.',
      valueType: int,
    });
    this.leasesHeld = meter.createObservableUpDownCounter('snowkey.lease.held', {
      unit: '{lease}',
      description: 'Node-id leases held: 1 while a lease is held, 0 once it is released or lost.',
      valueType: int,
    });
    this.leaseTimeToExpiry = meter.createObservableGauge('snowkey.lease.time_to_expiry', {
      unit: 's',
      description:
        'Time until others may take the node id unless the lease is renewed; ids stop a margin before.',
      valueType: double,
    });
    this.segmentBuffered = meter.createObservableUpDownCounter('snowkey.segment.buffered', {
      unit: '{id}',
      description: 'Ids a segment allocator holds in memory.',
      valueType: int,
    });
    this.segmentStep = meter.createObservableGauge('snowkey.segment.step', {
      unit: '{id}',
      description: 'The dynamic step: the ids the next segment holds.',
      valueType: int,
    });
    this.segmentRemaining = meter.createObservableGauge('snowkey.segment.remaining', {
      unit: '{id}',
      description: "Ids of the tag no allocator had taken at this allocator's last take.",
      valueType: double,
    });
    this.segmentRunway = meter.createObservableGauge('snowkey.segment.runway', {
      unit: 's',
      description: "How long the tag's ids last at the rate its counter moves.",
      valueType: double,
    });
    this.segmentUnavailable = meter.createObservableCounter('snowkey.segment.unavailable', {
      unit: '{call}',
      description: 'nextId() and nextIds() calls refused because the buffers held too few ids.',
      valueType: int,
    });
    const histogram = (name: string, description: string) =>
      meter.createHistogram(name, {
        unit: 's',
        description,
        valueType: double,
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    this.clockWaitDuration = histogram(
      'snowkey.clock.wait.duration',
      "Waits of a Snowflake generator for its clock's next time unit.",
    );
    this.leaseAcquisitionDuration = histogram(
      'snowkey.lease.acquisition.duration',
      'Node-id lease acquisitions: reading the lease table and claiming an id.',
    );
    this.leaseRenewalDuration = histogram(
      'snowkey.lease.renewal.duration',
      'Node-id lease renewals; failed ones carry error.type.',
    );
    this.segmentRefillDuration = histogram(
      'snowkey.segment.refill.duration',
      'Segment takes from the store; failed ones carry error.type.',
    );
    this.segmentWaitDuration = histogram(
      'snowkey.segment.wait.duration',
      'ready() calls of a segment allocator that waited for the store.',
    );
  }

  /** The observable instruments, for the batch callback. */
  get observables(): Observable[] {
    return [
      this.idsIssued,
      this.sequenceOverflows,
      this.clockBorrows,
      this.clockLead,
      this.fenceTrips,
      this.leasesHeld,
      this.leaseTimeToExpiry,
      this.segmentBuffered,
      this.segmentStep,
      this.segmentRemaining,
      this.segmentRunway,
      this.segmentUnavailable,
    ];
  }
}
