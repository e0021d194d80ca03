import { type Clock, monotonicClock, readClock } from './clock.js';
import { type DecodedId, decode } from './decode.js';
import {
  ClockMovedBackwardsError,
  ClockStalledError,
  InvalidArgumentError,
  TimestampOutOfRangeError,
} from './errors.js';
import { type IdGenerator, markAscendingBatches, type TimestampFence } from './id-generator.js';
import { assertLayout, type Layout, withEpoch } from './layout.js';
import { layouts } from './layouts.js';
import { packNodeFields } from './node-fields.js';
import { asError, type LastError, Listeners } from './observe/listeners.js';
import { nonNegativeMs, optionalBoolean } from './option-checks.js';
import { GENERATOR_OPTION_NAMES } from './reserved-names.js';
import type { SnowflakeEvent, SnowflakeStats } from './snowflake-stats.js';

/** What to do when a time unit's sequence is used up. */
export type SequenceOverflow = 'wait' | 'borrow';

/** Hands a generator its node id and guards its timestamps: a lease from `leaseNodeId`, or your own. */
export interface NodeIdSource {
  /** All node bits packed into one number. */
  readonly nodeId: number;
  readonly fence: TimestampFence;
}

/** The options of {@link Snowflake} other than the node id. */
export interface SnowflakeCommonOptions<F extends string = 'workerId'> {
  /** Default `layouts.default` (41-bit ms + workerId 10 + sequence 12, epoch 2025-01-01). */
  layout?: Layout<F>;
  /** Overrides the layout's epoch (ms since 1970). */
  epoch?: number;
  /** Ms since 1970. Default {@link monotonicClock}. Inject one in tests. */
  clock?: Clock;
  /** On a used-up sequence, `'wait'` (default) for the clock, or `'borrow'` up to `maxBorrowMs` ahead. */
  sequenceOverflow?: SequenceOverflow;
  /** The furthest `'borrow'` may run ahead of the clock. Default 1000 ms. */
  maxBorrowMs?: number;
  /** How far a clock may go back before {@link ClockMovedBackwardsError}. Default 10 ms. */
  clockRollbackToleranceMs?: number;
  /** Keep `id % n` balanced at low traffic (a unit starts its sequence where the last stopped). Default true. */
  balanceModulo?: boolean;
  /** A fence alone (a lease supplies one). */
  fence?: TimestampFence;
}

/** The node id: every node field by name, or `nodeId` (packed), or a `lease`; exactly one. */
export type NodeIdOptions<F extends string> = string extends F
  ? { readonly [nodeField: string]: unknown; nodeId?: number; lease?: NodeIdSource }
  :
      | ({ readonly [K in F]: number } & { nodeId?: undefined; lease?: undefined })
      | ({ readonly [K in F]?: undefined } & { nodeId: number; lease?: undefined })
      | ({ readonly [K in F]?: undefined } & { lease: NodeIdSource; nodeId?: undefined });

/** Options of {@link Snowflake}; the layout's node fields by name, checked by the compiler. */
export type SnowflakeOptions<F extends string = 'workerId'> = SnowflakeCommonOptions<F> &
  NodeIdOptions<NoInfer<F>>;

const KNOWN = new Set<string>(GENERATOR_OPTION_NAMES);

/** How long a spin for the next time unit may last, in real time, before the clock counts as stalled. */
const STALL_BOUND_MS = 2000;

/**
 * A Snowflake id generator: 64-bit, time-ordered, unique per node, strictly increasing per
 * generator. The default layout:
 *
 * ```
 *  63  62                                  22 21          12 11          0
 * ┌───┬──────────────────────────────────────┬──────────────┬─────────────┐
 * │ 0 │ timestamp: 41 bits, ms since epoch   │ workerId: 10 │ sequence: 12│
 * └───┴──────────────────────────────────────┴──────────────┴─────────────┘
 *   sign bit kept 0, so ids fit a signed BIGINT
 * ```
 *
 * @example
 * const gen = new Snowflake({ workerId: 1 });
 * const id = gen.nextId();          // 123456789012345678n
 * const many = gen.nextIds(1000);   // strictly increasing bigint[]
 * gen.decode(id);                   // { id, timestamp, date, sequence, workerId: 1 }
 */
export class Snowflake<const F extends string = 'workerId'> implements IdGenerator {
  static {
    // nextIds: nextId() for a unit's first id, then the sequence counted up within the unit.
    markAscendingBatches(Snowflake.prototype);
  }
  readonly layout: Layout<F>;
  /** The node fields by name, as validated. */
  readonly node: Readonly<Record<F, number>>;
  /** All node bits packed into one number. */
  readonly nodeId: number;
  readonly sequenceOverflow: SequenceOverflow;

  readonly #clock: Clock;
  readonly #epoch: number;
  readonly #unit: number;
  readonly #maxSeq: number;
  readonly #half: number;
  readonly #maxTs: number;
  readonly #tsShift: bigint;
  readonly #seqStep: bigint;
  readonly #nodePart: bigint;
  readonly #maxLead: number;
  readonly #tolerance: number;
  readonly #balance: boolean;
  readonly #fence: TimestampFence | undefined;

  /** Time units since epoch of the last id. */
  #last: number;
  /** Sequence of the last id. */
  #seq: number;
  /** The last id issued. */
  #cur = 0n;
  /** The highest clock reading seen, in units: detects a clock that goes back. */
  #clockHigh: number;
  /** The unit ids started after (restart guard or fence); the first unit above it needs no wait. */
  readonly #startFloor: number;

  // Counted off the per-id path, for stats(): the ids of a time unit are counted when the
  // generator leaves it (its last sequence less its first), the rest only where it overflows.
  /** Ids issued in the time units before the current one. */
  #issuedBefore = 0;
  /** The sequence of the current unit's first id. */
  #unitFirstSeq: number;
  #overflows = 0;
  #waits = 0;
  #waitMs = 0;
  #borrows = 0;
  #fenceTrips = 0;
  #lastError: LastError | undefined;
  readonly #listeners = new Listeners<SnowflakeEvent>();

  constructor(options: SnowflakeOptions<F>) {
    if (options === null || typeof options !== 'object') {
      throw new InvalidArgumentError('options', 'an object', options);
    }
    let layout = assertLayout(options.layout ?? layouts.default) as Layout<F>;
    if (options.epoch !== undefined) layout = withEpoch(layout, options.epoch);
    this.layout = layout;

    const given = options as Readonly<Record<string, unknown>>;
    const fieldNames = new Set<string>(layout.nodeFields.map((f) => f.name));
    for (const key of Object.keys(given)) {
      if (!KNOWN.has(key) && !fieldNames.has(key) && given[key] !== undefined) {
        throw new InvalidArgumentError(
          key,
          `a known option or a node field of layout "${layout.name}" (${[...fieldNames].join(', ') || 'none'})`,
          given[key],
        );
      }
    }
    const lease = options.lease;
    const packed = lease ? lease.nodeId : options.nodeId;
    const { node, nodeId, nodePart } = packNodeFields(layout, given, packed);
    this.node = node as Readonly<Record<F, number>>;
    this.nodeId = nodeId;

    const clock = options.clock ?? monotonicClock;
    if (typeof clock !== 'function')
      throw new InvalidArgumentError('clock', 'a function returning ms since 1970', clock);
    this.#clock = clock;

    const overflow = options.sequenceOverflow ?? 'wait';
    if (overflow !== 'wait' && overflow !== 'borrow') {
      throw new InvalidArgumentError('sequenceOverflow', "'wait' or 'borrow'", overflow);
    }
    this.sequenceOverflow = overflow;
    const maxBorrowMs = nonNegativeMs('maxBorrowMs', options.maxBorrowMs, 1000);
    const tolerance = nonNegativeMs('clockRollbackToleranceMs', options.clockRollbackToleranceMs, 10);
    const balance = optionalBoolean('balanceModulo', options.balanceModulo, true);

    this.#epoch = layout.epoch;
    this.#unit = layout.timeUnitMs;
    this.#maxSeq = layout.maxSequence;
    this.#half = (layout.maxSequence + 1) / 2;
    this.#maxTs = layout.maxTimestamp;
    this.#tsShift = BigInt(layout.timestampShift);
    this.#seqStep = 1n << BigInt(layout.sequenceShift);
    this.#nodePart = nodePart;
    this.#maxLead = overflow === 'borrow' ? Math.floor(maxBorrowMs / layout.timeUnitMs) : 0;
    this.#tolerance = Math.ceil(tolerance / layout.timeUnitMs);
    this.#balance = balance;
    this.#fence = lease?.fence ?? options.fence;

    const now = this.#readClock();
    this.#clockHigh = now;
    // Restart guard. Without a fence: an earlier life of this node id issued nothing above the
    // unit it died in (plus its borrow lead), and it died before we started, so ids start strictly
    // after that. With a fence (a lease), the database already knows the previous holder's last
    // possible timestamp (`startAfter`, covering its borrowing), so only that bound applies and a
    // borrowing generator starts with its full allowance.
    let floor = now + this.#maxLead;
    if (this.#fence) {
      const after = Math.floor((this.#fence.startAfter - this.#epoch) / this.#unit);
      floor = Math.max(after, now - 1);
    }
    this.#startFloor = floor;
    this.#last = floor;
    this.#seq = this.#maxSeq; // exhausted, so the first id moves to a new unit
    this.#unitFirstSeq = this.#maxSeq + 1;
  }

  /** The timestamp (ms since 1970) of the last id issued: the generator's high-water mark. */
  get lastTimestamp(): number {
    return this.#ms(this.#last);
  }

  /** The next id: unique, and greater than every id this generator issued before. */
  nextId(): bigint {
    const now = this.#readClock();
    if (now > this.#last) {
      this.#clockHigh = now;
      return this.#moveTo(now);
    }
    if (this.#clockHigh - now > this.#tolerance) this.#rolledBack(now);
    if (this.#seq < this.#maxSeq) {
      this.#seq++;
      this.#cur += this.#seqStep;
      return this.#cur;
    }
    return this.#moveTo(this.#nextUnit(now));
  }

  /** `count` strictly increasing ids at once; much faster than `count` calls of `nextId()`. */
  nextIds(count: number): bigint[] {
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new InvalidArgumentError('count', 'a non-negative safe integer', count);
    }
    const out: bigint[] = new Array(count);
    const step = this.#seqStep;
    let i = 0;
    while (i < count) {
      out[i++] = this.nextId();
      const room = Math.min(this.#maxSeq - this.#seq, count - i);
      if (room > 0) {
        let c = this.#cur;
        for (let k = 0; k < room; k++) {
          c += step;
          out[i++] = c;
        }
        this.#cur = c;
        this.#seq += room;
      }
    }
    return out;
  }

  /** Ids issued, overflows, clock waits, borrows, fence trips and the last error. */
  stats(): SnowflakeStats {
    let at = this.#ms(this.#clockHigh);
    try {
      at = readClock(this.#clock);
    } catch {
      // a broken clock is reported by nextId(); the figures are still worth reading
    }
    return {
      kind: 'snowflake',
      nodeId: this.nodeId,
      layout: this.layout.name,
      at,
      idsIssued: this.#issuedBefore + this.#seq - this.#unitFirstSeq + 1,
      sequenceOverflows: this.#overflows,
      clockWaits: this.#waits,
      clockWaitMs: this.#waitMs,
      borrows: this.#borrows,
      lastTimestamp: this.lastTimestamp,
      fenceTrips: this.#fenceTrips,
      lastError: this.#lastError,
    };
  }

  /** Calls `listener` on every wait for the clock; returns the unsubscribe. */
  subscribe(listener: (event: SnowflakeEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Decodes an id of this generator's layout. */
  decode(id: bigint | string | number): DecodedId<F> {
    return decode(id, { layout: this.layout });
  }

  /** Ms since 1970 at the start of time unit `unit`. */
  #ms(unit: number): number {
    return this.#epoch + unit * this.#unit;
  }

  #readClock(): number {
    return Math.floor((readClock(this.#clock) - this.#epoch) / this.#unit);
  }

  #rolledBack(now: number): never {
    this.#fail(
      new ClockMovedBackwardsError(this.#ms(this.#clockHigh), this.#ms(now), this.#tolerance * this.#unit),
    );
  }

  /** Records `error` as the last one, then throws it. */
  #fail(error: Error): never {
    this.#lastError = { error, at: this.#ms(this.#clockHigh) };
    throw error;
  }

  /** The sequence is used up and the clock has not passed the last unit: borrow or wait. */
  #nextUnit(now: number): number {
    const want = this.#last + 1;
    // The unit right above the restart floor is the first id's: no sequence ran out.
    if (want === this.#startFloor + 1) return want;
    this.#overflows++;
    if (want - now <= this.#maxLead) {
      this.#borrows++;
      return want;
    }
    const lagUnits = want - this.#maxLead - now;
    if (lagUnits > this.#tolerance + 1) {
      // waiting that long would block the event loop; the clock is far behind our ids.
      this.#fail(
        new ClockMovedBackwardsError(this.#ms(this.#last), this.#ms(now), this.#tolerance * this.#unit),
      );
    }
    const started = performance.now();
    let t = now;
    while (want - t > this.#maxLead) {
      if (performance.now() - started > STALL_BOUND_MS) {
        this.#fail(new ClockStalledError(this.#ms(want), this.#ms(t), STALL_BOUND_MS));
      }
      t = this.#readClock();
      if (this.#clockHigh - t > this.#tolerance) this.#rolledBack(t);
      if (t > this.#clockHigh) this.#clockHigh = t;
    }
    const waited = performance.now() - started;
    this.#waits++;
    this.#waitMs += waited;
    if (this.#listeners.active) this.#listeners.emit({ type: 'clock-wait', ms: waited });
    return Math.max(t, want);
  }

  #moveTo(unit: number): bigint {
    if (unit > this.#maxTs || unit < 0) {
      this.#fail(
        new TimestampOutOfRangeError(this.layout.name, this.#ms(unit), this.#epoch, this.#ms(this.#maxTs)),
      );
    }
    const ms = this.#ms(unit);
    if (this.#fence) {
      try {
        this.#fence.permit(ms);
      } catch (err) {
        this.#fenceTrips++;
        this.#fail(asError(err));
      }
      this.#fence.observe?.(ms);
    }
    let seq = 0;
    if (this.#balance) {
      seq = this.#seq + 1;
      if (seq >= this.#half) seq = 0;
    }
    this.#issuedBefore += this.#seq - this.#unitFirstSeq + 1;
    this.#unitFirstSeq = seq;
    this.#last = unit;
    this.#seq = seq;
    this.#cur = (BigInt(unit) << this.#tsShift) | this.#nodePart | (BigInt(seq) * this.#seqStep);
    return this.#cur;
  }
}
