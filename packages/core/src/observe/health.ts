import type { LeaseStats } from '../lease/lease-stats.js';
import type { SegmentRunway } from '../segment/runway.js';
import type { SegmentStats } from '../segment/segment-stats.js';
import type { SnowflakeStats } from '../snowflake-stats.js';
import type { LastError } from './listeners.js';

/** What {@link snowkeyHealth} checks: a generator, its lease, segment allocators; each optional. */
export interface HealthParts {
  readonly generator?: { stats(): SnowflakeStats };
  readonly lease?: { stats(): LeaseStats };
  readonly segments?: readonly { stats(): SegmentStats; runway(): SegmentRunway }[];
}

/** An error as a health report shows it. */
export interface HealthError {
  readonly name: string;
  readonly code?: string;
  readonly message: string;
  /** When it happened, by the object's clock. */
  readonly at: string;
}

/** The report of {@link snowkeyHealth}: plain JSON, for a probe's response body. */
export interface SnowkeyHealth {
  /** `pass`; `warn`: issuing, with a problem to look at (renewals failing, a store failing); `fail`: not ready. */
  readonly status: 'pass' | 'warn' | 'fail';
  /** Ids can be issued now: route traffic here (a readiness probe). */
  readonly ready: boolean;
  /** False only when a restart is the way out (the lease was lost to another holder): a liveness probe. */
  readonly live: boolean;
  /** Why the status is not `pass`, one sentence each. */
  readonly problems: readonly string[];
  readonly generator?: {
    readonly nodeId: number;
    readonly layout: string;
    readonly idsIssued: number;
    readonly lastTimestamp: string;
    readonly sequenceOverflows: number;
    readonly clockWaits: number;
    readonly borrows: number;
    readonly fenceTrips: number;
    readonly lastError?: HealthError;
  };
  readonly lease?: {
    readonly nodeId: number;
    readonly state: LeaseStats['state'];
    readonly holder: string;
    readonly table: string;
    readonly expiresAt: string;
    /** Ms until others may take the id (negative once expired), by the lease's clock. */
    readonly expiresInMs: number;
    readonly usableUntil: string;
    /** Ms until the fence stops new ids unless a renewal succeeds (negative once it has). */
    readonly usableForMs: number;
    /** The fence refuses new time units now. */
    readonly fenced: boolean;
    readonly renewals: number;
    readonly renewalFailures: number;
    readonly renewedAt: string;
    readonly lastError?: HealthError;
  };
  readonly segments?: readonly {
    readonly tag: string;
    readonly state: SegmentStats['state'];
    readonly buffered: number;
    readonly step: number;
    readonly idsIssued: number;
    /** Ids of the tag no allocator had taken at this allocator's last take (a decimal string: up to 2^63). */
    readonly remainingIds: string;
    /** How long the tag lasts at the rate its counter moves; absent while the rate is unknown. */
    readonly runwayMs?: number;
    readonly exhausted: boolean;
    readonly lastError?: HealthError;
  }[];
}

/**
 * Readiness and liveness of a generator, its lease and segment allocators, from what they hold (no
 * query); not live only when the lease was lost to another holder (restart the process).
 *
 * @example
 * const report = snowkeyHealth({ generator: gen, lease, segments: [orders] }); // { status: 'pass', ... }
 */
export function snowkeyHealth(parts: HealthParts): SnowkeyHealth {
  const problems: string[] = [];
  let ready = true;
  let live = true;
  let warn = false;

  let generator: SnowkeyHealth['generator'];
  if (parts.generator) {
    const g = parts.generator.stats();
    generator = {
      nodeId: g.nodeId,
      layout: g.layout,
      idsIssued: g.idsIssued,
      lastTimestamp: iso(g.lastTimestamp),
      sequenceOverflows: g.sequenceOverflows,
      clockWaits: g.clockWaits,
      borrows: g.borrows,
      fenceTrips: g.fenceTrips,
      ...errorField(g.lastError),
    };
  }

  let lease: SnowkeyHealth['lease'];
  if (parts.lease) {
    const l = parts.lease.stats();
    const fenced = l.state !== 'held' || l.at > l.usableUntil;
    const id = `the lease of node id ${l.nodeId}`;
    if (l.state === 'lost') {
      ready = false;
      live = false;
      problems.push(
        `${id} was lost to another holder: this generator issues no more ids; restart to lease again`,
      );
    } else if (l.state === 'released') {
      ready = false;
      problems.push(`${id} was released: this generator issues no more ids`);
    } else if (fenced) {
      ready = false;
      problems.push(
        `${id} is fenced: renewals failed and ids stopped at ${iso(l.usableUntil)}; they resume once a renewal succeeds`,
      );
    } else if (l.lastError) {
      warn = true;
      problems.push(
        `${id}: renewals are failing (${l.lastError.error.message}); ids stop at ${iso(l.usableUntil)}, in ${l.usableUntil - l.at} ms, unless one succeeds`,
      );
    }
    lease = {
      nodeId: l.nodeId,
      state: l.state,
      holder: l.holder,
      table: l.table,
      expiresAt: iso(l.expiresAt),
      expiresInMs: l.expiresAt - l.at,
      usableUntil: iso(l.usableUntil),
      usableForMs: l.usableUntil - l.at,
      fenced,
      renewals: l.renewals,
      renewalFailures: l.renewalFailures,
      renewedAt: iso(l.renewedAt),
      ...errorField(l.lastError),
    };
  }

  let segments: SnowkeyHealth['segments'];
  if (parts.segments) {
    segments = parts.segments.map((allocator) => {
      const s = allocator.stats();
      const runway = allocator.runway();
      const tag = `segment tag "${s.tag}"`;
      if (s.state !== 'ready') {
        ready = false;
        problems.push(
          s.state === 'new' ? `${tag}: ready() has not resolved yet` : `${tag}: the allocator is closed`,
        );
      } else if (s.exhausted && s.buffered === 0) {
        ready = false;
        problems.push(`${tag} has run out of ids (maxId ${runway.maxId})`);
      } else if (s.buffered === 0) {
        ready = false;
        problems.push(
          s.lastError
            ? `${tag}: no id in memory and the store is failing (${s.lastError.error.message})`
            : `${tag}: no id in memory, a segment is being fetched`,
        );
      } else if (s.lastError) {
        warn = true;
        problems.push(
          `${tag}: ${s.buffered} ids in memory and the store is failing (${s.lastError.error.message})`,
        );
      }
      return {
        tag: s.tag,
        state: s.state,
        buffered: s.buffered,
        step: s.step,
        idsIssued: s.idsIssued,
        remainingIds: String(runway.remainingIds),
        ...(runway.msLeft === undefined ? {} : { runwayMs: Math.round(runway.msLeft) }),
        exhausted: s.exhausted,
        ...errorField(s.lastError),
      };
    });
  }

  return {
    status: !ready ? 'fail' : warn ? 'warn' : 'pass',
    ready,
    live,
    problems,
    ...(generator && { generator }),
    ...(lease && { lease }),
    ...(segments && { segments }),
  };
}

function errorField(last: LastError | undefined): { lastError?: HealthError } {
  if (!last) return {};
  const { error, at } = last;
  const code = (error as { code?: unknown }).code;
  return {
    lastError: {
      name: error.name,
      ...(typeof code === 'string' ? { code } : {}),
      message: error.message,
      at: iso(at),
    },
  };
}

function iso(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
}
