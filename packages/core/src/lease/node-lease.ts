import { readClock } from '../clock.js';
import { LeaseExpiredError, WorkerIdLeaseError } from '../errors.js';
import type { TimestampFence } from '../id-generator.js';
import { asError, type LastError, Listeners } from '../observe/listeners.js';
import type { ResolvedNodeLeaseOptions } from './lease-options.js';
import type { LeaseEvent, LeaseStats } from './lease-stats.js';
import type { LeaseStore } from './lease-store.js';
import { releaseOnSignal } from './signal-release.js';

/** `held` until released or lost; a lost lease was renewed by nobody and taken by another holder. */
export type LeaseState = 'held' | 'lost' | 'released';

/** What a successful claim established, written to the lease row before the lease is handed out. */
export interface LeaseGrant {
  readonly nodeId: number;
  readonly holder: string;
  /** Ms: every id must have a later timestamp (the previous holder's ceiling or high-water mark). */
  readonly startAfter: number;
  readonly expiresAt: number;
  readonly ceiling: number;
  /** Ms since 1970: when the claim started, and how long it lasted (for stats). */
  readonly acquiredAt?: number;
  readonly acquireMs?: number;
}

/**
 * A leased node id; pass it to the generator as `lease`, whose timestamps it fences between the
 * previous holder's last and this lease's confirmed ceiling.
 */
export class NodeLease {
  /** The leased node id: all node bits packed, as `new Snowflake({ nodeId })` takes it. */
  readonly nodeId: number;
  /** This holder's token, as the store keeps it (the lease table's `holder` column). */
  readonly holder: string;
  /** Ms since 1970: ids of this lease have later timestamps. */
  readonly startAfter: number;
  /** What the generator consults; see {@link TimestampFence}. */
  readonly fence: TimestampFence;
  /** Where the lease is kept: the lease table's name, or `etcd <key prefix>`. */
  readonly table: string;

  readonly #options: ResolvedNodeLeaseOptions;
  readonly #store: LeaseStore;
  #state: LeaseState = 'held';
  #expiresAt: number;
  #ceiling: number;
  #highWater: number;
  #lastError: unknown;
  /** The last failed renewal, for stats(); cleared by a successful one. */
  #lastFailure: LastError | undefined;
  readonly #acquiredAt: number;
  readonly #acquireMs: number;
  #renewals = 0;
  #renewalFailures = 0;
  #renewedAt: number;
  readonly #listeners = new Listeners<LeaseEvent>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #renewing: Promise<void> | undefined;
  #releasing: Promise<void> | undefined;
  readonly #signalOffs: (() => void)[] = [];

  /** A lease a store has granted; `leaseNodeId` and `@snowkey/etcd` make them, applications do not. */
  constructor(options: ResolvedNodeLeaseOptions, store: LeaseStore, grant: LeaseGrant) {
    this.#options = options;
    this.#store = store;
    this.table = store.where;
    this.nodeId = grant.nodeId;
    this.holder = grant.holder;
    this.startAfter = grant.startAfter;
    this.#expiresAt = grant.expiresAt;
    this.#ceiling = grant.ceiling;
    this.#highWater = grant.startAfter;
    this.#acquiredAt = grant.acquiredAt ?? this.#clockNow();
    this.#acquireMs = grant.acquireMs ?? 0;
    this.#renewedAt = this.#acquiredAt;
    const startAfter = grant.startAfter;
    this.fence = Object.freeze({
      startAfter,
      permit: (ms: number) => this.#permit(ms),
      observe: (ms: number) => {
        if (ms > this.#highWater) this.#highWater = ms;
      },
    });
    if (options.heartbeat) {
      this.#timer = setInterval(() => this.#beat(), options.renewEveryMs);
      this.#timer.unref?.();
    }
    for (const signal of options.signals)
      this.#signalOffs.push(releaseOnSignal(signal, () => this.release(), options.signalReleaseTimeoutMs));
  }

  get state(): LeaseState {
    return this.#state;
  }

  /** Ms: when others may take the id unless it is renewed (as last confirmed by the database). */
  get expiresAt(): number {
    return this.#expiresAt;
  }

  /** Ms: the latest timestamp this lease may use, confirmed in the database. Never decreases. */
  get ceiling(): number {
    return this.#ceiling;
  }

  /** Ms: the highest timestamp the generator used so far (at least `startAfter`). */
  get highWaterMark(): number {
    return this.#highWater;
  }

  /** The last timestamp (ms since 1970) the generator may use without another renewal. */
  get usableUntil(): number {
    return Math.min(this.#ceiling, this.#expiresAt) - this.#options.expiryMarginMs;
  }

  /** The lease's state: expiry, ceiling, renewals and failures, the last error. */
  stats(): LeaseStats {
    return {
      kind: 'lease',
      nodeId: this.nodeId,
      holder: this.holder,
      table: this.table,
      state: this.#state,
      at: this.#clockNow(),
      acquiredAt: this.#acquiredAt,
      acquireMs: this.#acquireMs,
      expiresAt: this.#expiresAt,
      ceiling: this.#ceiling,
      highWaterMark: this.#highWater,
      usableUntil: this.usableUntil,
      renewals: this.#renewals,
      renewalFailures: this.#renewalFailures,
      renewedAt: this.#renewedAt,
      lastError: this.#lastFailure,
    };
  }

  /** Calls `listener` after every renewal; returns the unsubscribe. */
  subscribe(listener: (event: LeaseEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Renews now (the heartbeat calls it); rejects with a {@link LeaseExpiredError} when the lease is lost. */
  renew(): Promise<void> {
    if (this.#state !== 'held') return Promise.reject(this.#refusal(this.#clockNow()));
    this.#renewing ??= this.#timedRenew().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  /** Stops the generator and frees the id at once; its next holder starts after our last id. */
  release(): Promise<void> {
    this.#releasing ??= this.#release();
    return this.#releasing;
  }

  async #release(): Promise<void> {
    const wasHeld = this.#state === 'held';
    // First, so nothing is issued after the high-water mark we record.
    if (wasHeld) this.#state = 'released';
    this.#stop();
    if (!wasHeld) return;
    try {
      await this.#renewing?.catch(() => {});
      await this.#store.release({
        nodeId: this.nodeId,
        holder: this.holder,
        highWater: this.#highWater,
        now: this.#clockNow(),
      });
    } catch (err) {
      throw new WorkerIdLeaseError(
        `could not release node id ${this.nodeId} in "${this.table}"; it frees itself at ${iso(this.#expiresAt)}`,
        this.table,
        String(err),
        { cause: err },
      );
    }
  }

  /** {@link NodeLease.renew}'s work, counted and told to the subscribers. */
  async #timedRenew(): Promise<void> {
    const started = this.#clockNow();
    try {
      await this.#renew();
    } catch (err) {
      this.#renewalFailures++;
      const error = asError(err);
      const at = this.#clockNow();
      this.#lastFailure = { error, at };
      this.#listeners.emit({ type: 'renewal', ms: at - started, error });
      throw err;
    }
    this.#renewals++;
    this.#lastFailure = undefined;
    this.#renewedAt = this.#clockNow();
    this.#listeners.emit({ type: 'renewal', ms: this.#renewedAt - started });
  }

  async #renew(): Promise<void> {
    const now = this.#clockNow();
    const expiresAt = now + this.#options.ttlMs;
    const ceiling = Math.max(this.#ceiling, expiresAt);
    const highWater = this.#highWater;
    let held: boolean;
    try {
      held = await this.#store.renew({
        nodeId: this.nodeId,
        holder: this.holder,
        expiresAt,
        ceiling,
        highWater,
        now,
      });
    } catch (err) {
      this.#lastError = err;
      throw new WorkerIdLeaseError(
        `could not renew node id ${this.nodeId} in "${this.table}": ids stop at ${iso(this.#limit())} unless a renewal succeeds`,
        this.table,
        String(err),
        { cause: err },
      );
    }
    if (this.#state !== 'held') return;
    if (!held) {
      this.#state = 'lost';
      this.#stop();
      throw this.#refusal(now);
    }
    // Only a ceiling the database confirmed may be used.
    this.#expiresAt = expiresAt;
    this.#ceiling = ceiling;
    this.#lastError = undefined;
  }

  #beat(): void {
    this.renew().catch((err) => {
      try {
        this.#options.onRenewalError?.(err);
      } catch {
        // a throwing callback must not become an unhandled rejection
      }
    });
  }

  #limit(): number {
    return this.#ceiling - this.#options.expiryMarginMs;
  }

  #permit(ms: number): void {
    if (this.#state !== 'held' || ms > this.#limit()) throw this.#refusal(ms);
    // The ceiling alone keeps ids unique, but it can be ahead of the expiry (a ceiling inherited
    // from a holder whose clock ran ahead, or a generator on another clock): refuse on our own
    // clock too, so no id is issued on a lease others may already take.
    const now = this.#clockNow();
    if (now > this.#expiresAt - this.#options.expiryMarginMs) throw this.#expiring(now);
  }

  #expiring(now: number): LeaseExpiredError {
    return new LeaseExpiredError(
      `node id ${this.nodeId}: the lease ${now > this.#expiresAt ? 'expired' : 'expires'} at ${iso(this.#expiresAt)} and this process's clock reads ${iso(now)} (margin ${this.#options.expiryMarginMs} ms); nothing was issued, and ids resume once a renewal succeeds`,
      this.nodeId,
      this.#expiresAt,
      this.#lastError === undefined ? undefined : { cause: this.#lastError },
    );
  }

  #refusal(ms: number): LeaseExpiredError {
    const id = `node id ${this.nodeId}`;
    if (this.#state === 'released') {
      return new LeaseExpiredError(`${id} was released; lease a node id again`, this.nodeId, this.#expiresAt);
    }
    if (this.#state === 'lost') {
      return new LeaseExpiredError(
        `${id} was taken by another holder after its lease expired in "${this.table}"; this generator issues no more ids`,
        this.nodeId,
        this.#expiresAt,
      );
    }
    return new LeaseExpiredError(
      `${id}: timestamp ${iso(ms)} is past what the lease allows (${iso(this.#limit())}, its ceiling ${iso(this.#ceiling)} less the ${this.#options.expiryMarginMs} ms margin); nothing was issued, and ids resume once a renewal succeeds`,
      this.nodeId,
      this.#expiresAt,
      this.#lastError === undefined ? undefined : { cause: this.#lastError },
    );
  }

  #clockNow(): number {
    return Math.floor(readClock(this.#options.clock));
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const off of this.#signalOffs.splice(0)) off();
  }
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
