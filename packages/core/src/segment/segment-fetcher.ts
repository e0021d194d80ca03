import { readClock } from '../clock.js';
import { nextStep, type StepBounds, stepBounds } from './dynamic-step.js';
import { CounterObservations, type SegmentRunway } from './runway.js';
import { toStoreError } from './segment-errors.js';
import { DEFAULT_MAX_STEP, DEFAULT_STEP, type ResolvedSegmentOptions } from './segment-options.js';
import { checkGrant, type SegmentGrant } from './segment-store.js';

/**
 * How big the next segment is and where it comes from: the store, Leaf's dynamic step (sized by
 * how long the previous segment lasted) and the counter readings the runway is estimated from.
 * A {@link SegmentAllocator} holds one and decides when to call it.
 */
export class SegmentFetcher {
  readonly #o: ResolvedSegmentOptions;
  readonly #seen = new CounterObservations();
  #bounds: StepBounds;
  #step: number;
  #lastTakeAt: number | undefined;

  constructor(options: ResolvedSegmentOptions) {
    this.#o = options;
    this.#step = options.step ?? DEFAULT_STEP;
    this.#bounds = this.#boundsFor(this.#step);
  }

  /** The step the next take starts from. */
  get step(): number {
    return this.#step;
  }

  /** Creates the tag's table and row when missing; takes the row's step when no `step` option was given. */
  async prepare(): Promise<void> {
    const { store, tag, minId } = this.#o;
    let prepared: { step?: number };
    try {
      prepared = await store.prepare(tag, { step: this.#o.step ?? DEFAULT_STEP, minId });
    } catch (err) {
      throw toStoreError(err, `could not prepare tag "${tag}" in ${store.name}`, tag, store.name);
    }
    if (this.#o.step === undefined && prepared.step !== undefined) {
      this.#bounds = this.#boundsFor(prepared.step);
      this.#step = prepared.step;
    }
  }

  /**
   * The next segment, of the dynamic step or `atLeast` ids, whichever is more; `undefined` when the
   * tag has no id left up to `maxId`. Rejects with a {@link SegmentStoreError}.
   */
  async take(atLeast: number): Promise<SegmentGrant | undefined> {
    const { store, tag, minId, maxId } = this.#o;
    const startedAt = this.#now();
    const lastedMs = this.#lastTakeAt === undefined ? undefined : startedAt - this.#lastTakeAt;
    const step = nextStep(this.#step, lastedMs, this.#bounds);
    const count = Math.max(step, atLeast);
    let grant: SegmentGrant | undefined;
    try {
      grant = await store.take({ tag, count, minId, maxId });
      if (grant !== undefined) checkGrant(grant, count, minId, maxId);
    } catch (err) {
      const what = `could not take a segment of ${count} ids for tag "${tag}" from ${store.name}`;
      throw toStoreError(err, what, tag, store.name);
    }
    if (grant === undefined) return undefined;
    this.#step = step;
    this.#lastTakeAt = startedAt;
    // An operator may change the row's step while allocators run: it is the new floor.
    if (this.#o.step === undefined && grant.step !== undefined) this.#bounds = this.#boundsFor(grant.step);
    this.#seen.record(this.#now(), grant.last);
    return grant;
  }

  runway(): SegmentRunway {
    return this.#seen.runway(this.#o.tag, this.#o.minId, this.#o.maxId, this.#now());
  }

  #boundsFor(minStep: number): StepBounds {
    return stepBounds(minStep, this.#o.maxStep ?? DEFAULT_MAX_STEP, this.#o.targetSegmentMs);
  }

  #now(): number {
    return readClock(this.#o.clock);
  }
}
