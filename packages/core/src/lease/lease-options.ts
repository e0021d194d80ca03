import { type Clock, monotonicClock, readClock } from '../clock.js';
import { InvalidArgumentError } from '../errors.js';
import { assertLayout, type Layout } from '../layout.js';
import { nonNegativeMs, optionalBoolean, positiveMs } from '../option-checks.js';
import { checkTableName } from '../own-table.js';
import { assertSqlClient, type SqlClient } from '../sql-client.js';
import { defaultHolderLabel } from './holder-token.js';
import { DEFAULT_LEASE_TABLE } from './lease-table.js';

/** A POSIX signal name such as `'SIGTERM'` (typed without depending on Node's types). */
export type SignalName = `SIG${string}`;

/** The options of a node-id lease whatever its store. */
export interface NodeLeaseOptions {
  /** The layout the generator will use: node ids are leased in `0..2^nodeBits-1`. */
  layout: Layout;
  /** How long a lease lives without renewal. Default 30 000 ms. */
  ttlMs?: number;
  /** How often the heartbeat renews it; below `ttlMs - expiryMarginMs`. Default a third of `ttlMs`. */
  renewEveryMs?: number;
  /** When renewal fails, the generator stops this long before the ceiling. Default a tenth of `ttlMs`. */
  expiryMarginMs?: number;
  /** Ms since 1970. Default {@link monotonicClock}; give the generator the same clock. */
  clock?: Clock;
  /** Renew on a timer (unref'd, so it never keeps the process alive). Default true; tests call `renew()`. */
  heartbeat?: boolean;
  /** Release on these signals, then let the signal take its course. `true` means SIGTERM and SIGINT. Default false. */
  releaseOnSignals?: boolean | readonly SignalName[];
  /** How long a signal waits for the release before the process dies anyway. Default 5000 ms. */
  signalReleaseTimeoutMs?: number;
  /** Told about every failed renewal (the heartbeat swallows them otherwise). */
  onRenewalError?: (error: unknown) => void;
  /** A label stored with the holder token, e.g. the host name. Default `pid-<pid>@<host>` (`pid-<pid>` without a host name). */
  holderLabel?: string;
  /** The node id to try first (`kubernetesPodIndex()`); when held, the smallest free one is taken. */
  preferredNodeId?: number;
}

/** Options of {@link leaseNodeId}. */
export interface LeaseNodeIdOptions extends NodeLeaseOptions {
  /** Where the lease table lives: `pgSqlClient(pool)`, an adapter's client, ... */
  client: SqlClient;
  /** The lease table. Default `snowkey_node_leases`. */
  table?: string;
  /** Create the table when it is missing. Default true. */
  createTable?: boolean;
}

/** {@link NodeLeaseOptions} validated, with defaults filled in. */
export interface ResolvedNodeLeaseOptions {
  readonly layout: Layout;
  readonly maxNodeId: number;
  readonly ttlMs: number;
  readonly renewEveryMs: number;
  readonly expiryMarginMs: number;
  readonly clock: Clock;
  readonly heartbeat: boolean;
  readonly signals: readonly SignalName[];
  readonly signalReleaseTimeoutMs: number;
  readonly onRenewalError: ((error: unknown) => void) | undefined;
  readonly holderLabel: string;
  readonly preferredNodeId: number | undefined;
}

/** {@link LeaseNodeIdOptions} validated, with defaults filled in. */
export interface ResolvedLeaseOptions extends ResolvedNodeLeaseOptions {
  readonly client: SqlClient;
  readonly table: string;
  readonly createTable: boolean;
}

/** Validates every option eagerly, naming the bad one, what it got and what it expected. */
export function resolveLeaseOptions(options: LeaseNodeIdOptions): ResolvedLeaseOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with client and layout', options);
  }
  const client = assertSqlClient(options.client, 'client');
  return {
    ...resolveNodeLeaseOptions(options),
    client,
    table: checkTableName(options.table ?? DEFAULT_LEASE_TABLE),
    createTable: optionalBoolean('createTable', options.createTable, true),
  };
}

/** Validates the options every lease store shares. */
export function resolveNodeLeaseOptions(options: NodeLeaseOptions): ResolvedNodeLeaseOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with a layout', options);
  }
  const layout = assertLayout(options.layout);
  if (layout.nodeBitsTotal < 1) {
    throw new InvalidArgumentError(
      'layout',
      'a layout with at least one node bit (a node id is what a lease hands out)',
      `layout "${layout.name}" with 0 node bits`,
    );
  }
  if (layout.nodeBitsTotal > 31) {
    throw new InvalidArgumentError(
      'layout',
      'a layout with at most 31 node bits',
      `layout "${layout.name}" with ${layout.nodeBitsTotal}`,
    );
  }
  const ttlMs = positiveMs('ttlMs', options.ttlMs, 30_000);
  const renewEveryMs = positiveMs('renewEveryMs', options.renewEveryMs, Math.max(1, Math.floor(ttlMs / 3)));
  const expiryMarginMs = nonNegativeMs('expiryMarginMs', options.expiryMarginMs, Math.floor(ttlMs / 10));
  if (renewEveryMs >= ttlMs) {
    throw new InvalidArgumentError('ttlMs', `longer than renewEveryMs (${renewEveryMs} ms)`, ttlMs);
  }
  if (renewEveryMs + expiryMarginMs >= ttlMs) {
    throw new InvalidArgumentError(
      'expiryMarginMs',
      `below ttlMs - renewEveryMs (${ttlMs - renewEveryMs} ms), or the generator would stop before the first renewal`,
      expiryMarginMs,
    );
  }
  const clock = options.clock ?? monotonicClock;
  if (typeof clock !== 'function')
    throw new InvalidArgumentError('clock', 'a function returning ms since 1970', clock);
  // Read once now, so a clock that returns NaN is refused before any SQL is sent.
  readClock(clock);
  const onRenewalError = options.onRenewalError;
  if (onRenewalError !== undefined && typeof onRenewalError !== 'function') {
    throw new InvalidArgumentError('onRenewalError', 'a function', onRenewalError);
  }
  const holderLabel = options.holderLabel ?? defaultHolderLabel();
  if (typeof holderLabel !== 'string' || holderLabel.length > 150) {
    throw new InvalidArgumentError('holderLabel', 'a string of at most 150 characters', holderLabel);
  }
  const maxNodeId = 2 ** layout.nodeBitsTotal - 1;
  const preferred = options.preferredNodeId;
  if (
    preferred !== undefined &&
    (!Number.isSafeInteger(preferred) || preferred < 0 || preferred > maxNodeId)
  ) {
    throw new InvalidArgumentError(
      'preferredNodeId',
      `a node id of layout "${layout.name}" (an integer in 0..${maxNodeId}), or undefined`,
      preferred,
    );
  }
  return {
    layout,
    maxNodeId,
    ttlMs,
    renewEveryMs,
    expiryMarginMs,
    clock,
    heartbeat: optionalBoolean('heartbeat', options.heartbeat, true),
    signals: signals(options.releaseOnSignals),
    signalReleaseTimeoutMs: nonNegativeMs('signalReleaseTimeoutMs', options.signalReleaseTimeoutMs, 5000),
    onRenewalError,
    holderLabel,
    preferredNodeId: preferred,
  };
}

function signals(value: LeaseNodeIdOptions['releaseOnSignals']): readonly SignalName[] {
  if (value === undefined || value === false) return [];
  if (value === true) return ['SIGTERM', 'SIGINT'];
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string' && /^SIG[A-Z0-9]+$/.test(s))) {
    throw new InvalidArgumentError(
      'releaseOnSignals',
      "a boolean or a list of signal names such as ['SIGTERM']",
      value,
    );
  }
  return value;
}
