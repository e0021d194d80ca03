import { readClock } from '../clock.js';
import { InvalidArgumentError } from '../errors.js';
import type { IdGenerator } from '../id-generator.js';
import { Listeners } from '../observe/listeners.js';
import type { SegmentRunway } from './runway.js';
import { IdRangeExhaustedError, type SegmentStoreError, SegmentUnavailableError } from './segment-errors.js';
import { SegmentFetcher } from './segment-fetcher.js';
import {
  type ResolvedSegmentOptions,
  resolveSegmentOptions,
  type SegmentAllocatorOptions,
} from './segment-options.js';
import type { SegmentEvent, SegmentStats } from './segment-stats.js';
import type { SegmentGrant } from './segment-store.js';

/** A segment waiting behind the one being used. */
interface Queued {
  readonly first: bigint;
  readonly size: number;
}

/** Arms the prefetch for good: every call checks whether a new attempt is due (after a failure). */
const ALWAYS = Number.MAX_SAFE_INTEGER;

/**
 * Dense ids (1, 2, 3, ... per tag, with gaps) from a shared counter in SQL or Redis, handed out
 * from memory (Leaf's segment mode); ids lost with a stopped process leave a gap, never a repeat.
 *
 * @example
 * const orders = new SegmentAllocator({ client: pgSqlClient(pool), tag: 'orders', maxId: Number.MAX_SAFE_INTEGER });
 * await orders.ready();
 * orders.nextId(); // 1n, then 2n, ...: unique across every process sharing the table
 */
export class SegmentAllocator implements IdGenerator {
  /** The business tag. */
  readonly tag: string;
  readonly #o: ResolvedSegmentOptions;
  readonly #fetcher: SegmentFetcher;
  // The segment in use: the next id and how many are left. Kept in fields of their own: nextId() reads nothing else.
  #cursor = 0n;
  #left = 0;
  /** Prefetch once `#left` drops to this; -1 when nothing is to be fetched. */
  #prefetchBelow = -1;
  readonly #queue: Queued[] = [];
  #queued = 0;
  #state: 'new' | 'ready' | 'closed' = 'new';
  #preparing: Promise<void> | undefined;
  #fetching: Promise<void> | undefined;
  #lastError: SegmentStoreError | undefined;
  #retryAt = 0;
  #exhausted = false;
  /** Ids a caller asked for that the buffers did not hold: the next fetch covers them. */
  #demand = 0;
  // For stats(), counted off the per-id path: ids issued = ids moved into use - ids left - ids dropped.
  #movedIntoUse = 0;
  #dropped = 0;
  #refills = 0;
  #refillFailures = 0;
  #unavailable = 0;
  #waits = 0;
  #lastErrorAt = 0;
  readonly #listeners = new Listeners<SegmentEvent>();

  constructor(options: SegmentAllocatorOptions) {
    this.#o = resolveSegmentOptions(options);
    this.tag = this.#o.tag;
    this.#fetcher = new SegmentFetcher(this.#o);
  }

  /** The step the next fetch starts from (the dynamic step). */
  get step(): number {
    return this.#fetcher.step;
  }

  /** Ids in memory: what `nextId()` can hand out before the store must answer. */
  get buffered(): number {
    return this.#left + this.#queued;
  }

  /** Resolves once `count` ids are in memory: await it before the first id and before a large batch. */
  async ready(count = 1): Promise<void> {
    checkCount(count, 1);
    await this.#prepare();
    let waitedFrom: number | undefined;
    try {
      for (;;) {
        if (this.#state === 'closed') throw this.#noIds(count);
        if (this.buffered >= count) return;
        if (this.#exhausted) throw new IdRangeExhaustedError(this.tag, this.#o.maxId);
        if (count > this.#demand) this.#demand = count;
        if (this.#fetching === undefined) this.#startFetch();
        waitedFrom ??= this.#now();
        await this.#fetching;
        if (this.#lastError) throw this.#lastError;
      }
    } finally {
      if (waitedFrom !== undefined) {
        this.#waits++;
        this.#listeners.emit({ type: 'wait', ms: this.#now() - waitedFrom });
      }
    }
  }

  /** Ids issued and buffered, the step, refills, failures and the last error. */
  stats(): SegmentStats {
    const failing = this.#lastError;
    return {
      kind: 'segment',
      tag: this.tag,
      state: this.#state,
      at: this.#now(),
      idsIssued: this.#movedIntoUse - this.#left - this.#dropped,
      buffered: this.buffered,
      step: this.step,
      refills: this.#refills,
      refillFailures: this.#refillFailures,
      unavailable: this.#unavailable,
      waits: this.#waits,
      exhausted: this.#exhausted,
      lastError: failing === undefined ? undefined : { error: failing, at: this.#lastErrorAt },
    };
  }

  /** Calls `listener` after every take from the store and every `ready()` that waited. */
  subscribe(listener: (event: SegmentEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** The next id, from memory; throws {@link SegmentUnavailableError} at once when none is buffered. */
  nextId(): bigint {
    if (this.#left > 0) {
      const id = this.#cursor;
      this.#cursor = id + 1n;
      if (--this.#left <= this.#prefetchBelow) this.#prefetch();
      return id;
    }
    if (this.#shiftQueue()) return this.nextId();
    this.#unavailable++;
    throw this.#noIds(1);
  }

  /** `count` increasing ids from memory, or a throw with none issued when fewer are buffered. */
  nextIds(count: number): bigint[] {
    checkCount(count, 0);
    if (count > this.#left + this.#queued) {
      this.#unavailable++;
      throw this.#noIds(count);
    }
    const ids = new Array<bigint>(count);
    let i = 0;
    while (i < count) {
      if (this.#left === 0) this.#shiftQueue();
      const end = i + Math.min(this.#left, count - i);
      this.#left -= end - i;
      let id = this.#cursor;
      while (i < end) {
        ids[i++] = id;
        id += 1n;
      }
      this.#cursor = id;
    }
    if (this.#left <= this.#prefetchBelow) this.#prefetch();
    return ids;
  }

  /** How long the tag lasts at the rate its counter is moving. */
  runway(): SegmentRunway {
    return this.#fetcher.runway();
  }

  /** Stops and drops the ids in memory (a gap, never a repeat); the connection stays yours to close. */
  async close(): Promise<void> {
    this.#state = 'closed';
    this.#dropped += this.#left;
    this.#left = 0;
    this.#queue.length = 0;
    this.#queued = 0;
    this.#prefetchBelow = -1;
    await this.#fetching;
    await this.#preparing?.catch(() => {});
  }

  #prepare(): Promise<void> {
    if (this.#state === 'closed') return Promise.reject(this.#noIds(1));
    this.#preparing ??= this.#fetcher.prepare().then(
      () => {
        if (this.#state === 'new') this.#state = 'ready';
      },
      (err: unknown) => {
        this.#preparing = undefined;
        throw err;
      },
    );
    return this.#preparing;
  }

  /** Moves the next queued segment into use; false when none is queued. */
  #shiftQueue(): boolean {
    const next = this.#queue.shift();
    if (next === undefined) return false;
    this.#queued -= next.size;
    this.#movedIntoUse += next.size;
    this.#cursor = next.first;
    this.#left = next.size;
    this.#prefetchBelow = this.#queue.length > 0 ? -1 : Math.floor(next.size * (1 - this.#o.prefetchAt));
    return true;
  }

  #prefetch(): void {
    if (this.#fetching !== undefined || this.#state !== 'ready' || this.#exhausted) {
      this.#prefetchBelow = -1;
      return;
    }
    // After a failure, every call lands here; read the clock only then.
    if (this.#lastError !== undefined && this.#now() < this.#retryAt) return;
    this.#startFetch();
  }

  #startFetch(): void {
    this.#prefetchBelow = -1;
    this.#fetching = this.#fetch().finally(() => {
      this.#fetching = undefined;
      // A batch asked for more than this fetch brought: fetch again at once.
      if (this.#demand > this.buffered && this.#lastError === undefined && !this.#exhausted) {
        if (this.#state === 'ready') this.#startFetch();
      } else if (this.#lastError === undefined) this.#demand = 0;
    });
  }

  async #fetch(): Promise<void> {
    let grant: SegmentGrant | undefined;
    const started = this.#now();
    try {
      grant = await this.#fetcher.take(this.#demand - this.buffered);
    } catch (err) {
      this.#refillFailures++;
      if (this.#listeners.active) {
        this.#listeners.emit({
          type: 'refill',
          ms: this.#now() - started,
          ids: 0,
          error: err as SegmentStoreError,
        });
      }
      if (this.#state !== 'closed') this.#fail(err as SegmentStoreError);
      return;
    }
    this.#lastError = undefined;
    if (grant !== undefined) {
      this.#refills++;
      if (this.#listeners.active) {
        const ids = Number(grant.last - grant.first + 1n);
        this.#listeners.emit({ type: 'refill', ms: this.#now() - started, ids });
      }
    }
    if (this.#state === 'closed') return; // the range is dropped: a gap
    if (grant === undefined) {
      this.#exhausted = true;
      this.#prefetchBelow = -1;
      return;
    }
    const size = Number(grant.last - grant.first + 1n);
    this.#queue.push({ first: grant.first, size });
    this.#queued += size;
    if (this.#left === 0) this.#shiftQueue();
    else this.#prefetchBelow = -1;
  }

  #fail(error: SegmentStoreError): void {
    this.#lastError = error;
    this.#lastErrorAt = this.#now();
    this.#retryAt = this.#lastErrorAt + this.#o.retryMs;
    // Keep asking (each due attempt after retryMs) until a segment is queued behind the current one.
    if (this.#queue.length === 0) this.#prefetchBelow = ALWAYS;
    try {
      this.#o.onError?.(error);
    } catch {
      // A failing error handler must not turn a background fetch into an unhandled rejection.
    }
  }

  /** The error for a call that found fewer than `requested` ids in memory; asks for them to be fetched. */
  #noIds(requested: number): Error {
    const available = this.buffered;
    if (this.#state === 'closed')
      return new SegmentUnavailableError(this.tag, 'closed', requested, available);
    if (this.#state === 'new')
      return new SegmentUnavailableError(this.tag, 'not-ready', requested, available);
    if (this.#exhausted) return new IdRangeExhaustedError(this.tag, this.#o.maxId);
    if (requested > this.#demand) this.#demand = requested;
    if (this.#fetching === undefined) this.#prefetch();
    const failing = this.#lastError;
    return failing === undefined
      ? new SegmentUnavailableError(this.tag, 'refilling', requested, available)
      : new SegmentUnavailableError(this.tag, 'store-failing', requested, available, { cause: failing });
  }

  #now(): number {
    return readClock(this.#o.clock);
  }
}

function checkCount(count: unknown, min: 0 | 1): asserts count is number {
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < min) {
    throw new InvalidArgumentError(
      'count',
      min === 1 ? 'a positive integer' : 'a non-negative integer',
      count,
    );
  }
}
