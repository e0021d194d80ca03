import { type Clock, monotonicClock, readClock } from '../clock.js';
import { InvalidArgumentError } from '../errors.js';
import { nonNegativeMs, optionalBoolean, positiveMs } from '../option-checks.js';
import { assertSqlClient, type SqlClient } from '../sql-client.js';
import { idBound, MAX_SIGNED_ID } from './id-range.js';
import type { SegmentStoreError } from './segment-errors.js';
import type { SegmentStore } from './segment-store.js';
import { DEFAULT_SEGMENT_TABLE } from './segment-table.js';
import { sqlSegmentStore } from './sql-segment-store.js';

/** Options of {@link SegmentAllocator}: a `tag`, and a SQL `client` or another `store`. */
export type SegmentAllocatorOptions = SegmentCommonOptions &
  (
    | {
        /** The database holding the allocation table: `pgSqlClient(pool)`, an adapter's client, ... */
        client: SqlClient;
        store?: never;
        /** The allocation table. Default `snowkey_segments`. */
        table?: string;
        /** Create the table when it is missing. Default true. */
        createTable?: boolean;
      }
    | {
        /** Another store, e.g. `redisSegmentStore(redis)`. */
        store: SegmentStore;
        client?: never;
        table?: never;
        createTable?: never;
      }
  );

/** The options every {@link SegmentAllocator} takes, whatever its store. */
export interface SegmentCommonOptions {
  /** The business tag: every allocator of one tag shares one counter. 1 to 128 characters. */
  tag: string;
  /** The ids one segment holds at first, the dynamic step's floor. Default the tag row's, else 1000. */
  step?: number;
  /** The dynamic step's ceiling. Default 1 000 000 (Leaf's), or `step` if that is larger. Equal to `step`: a fixed step. */
  maxStep?: number;
  /** How long a segment should last: shorter doubles the step, twice as long halves it. Default 15 min. */
  targetSegmentMs?: number;
  /** The share of a segment used when the next one is fetched in the background, in [0, 1). Default 0.1. */
  prefetchAt?: number;
  /** The lowest id handed out. Default 1. */
  minId?: bigint | number;
  /** The highest id handed out, e.g. `Number.MAX_SAFE_INTEGER` for ids safe as Numbers. Default 2^63-1. */
  maxId?: bigint | number;
  /** After a failed fetch, wait this long before the next attempt (`ready()` does not wait). Default 1000 ms. */
  retryMs?: number;
  /** Ms since 1970, for the dynamic step and the runway. Default {@link monotonicClock}. */
  clock?: Clock;
  /** Told about every failed fetch; they are retried quietly otherwise. */
  onError?: (error: SegmentStoreError) => void;
}

/** {@link SegmentAllocatorOptions} validated, with defaults filled in. */
export interface ResolvedSegmentOptions {
  readonly tag: string;
  readonly store: SegmentStore;
  /** undefined: take the store's base step. */
  readonly step: number | undefined;
  readonly maxStep: number | undefined;
  readonly targetSegmentMs: number;
  readonly prefetchAt: number;
  readonly minId: bigint;
  readonly maxId: bigint;
  readonly retryMs: number;
  readonly clock: Clock;
  readonly onError: ((error: SegmentStoreError) => void) | undefined;
}

/** The step a new row or a store without one starts with (Leaf's customary 1000). */
export const DEFAULT_STEP = 1000;
/** Leaf's MAX_STEP. */
export const DEFAULT_MAX_STEP = 1_000_000;
/** The step column is an INTEGER. */
const MAX_BASE_STEP = 2 ** 31 - 1;

/** Validates every option eagerly, naming the bad one, what it got and what it expected. */
export function resolveSegmentOptions(options: SegmentAllocatorOptions): ResolvedSegmentOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with tag and client (or store)', options);
  }
  const { tag } = options;
  if (typeof tag !== 'string' || tag.length < 1 || tag.length > 128) {
    throw new InvalidArgumentError('tag', 'a string of 1 to 128 characters such as "orders"', tag);
  }
  const clock = options.clock ?? monotonicClock;
  if (typeof clock !== 'function')
    throw new InvalidArgumentError('clock', 'a function returning ms since 1970', clock);
  readClock(clock);
  const step = options.step === undefined ? undefined : stepOption('step', options.step, MAX_BASE_STEP);
  const maxStep =
    options.maxStep === undefined
      ? undefined
      : stepOption('maxStep', options.maxStep, Number.MAX_SAFE_INTEGER);
  if (step !== undefined && maxStep !== undefined && maxStep < step) {
    throw new InvalidArgumentError('maxStep', `at least step (${step})`, maxStep);
  }
  const minId = idBound('minId', options.minId, 1n);
  const maxId = idBound('maxId', options.maxId, MAX_SIGNED_ID);
  if (maxId < minId) throw new InvalidArgumentError('maxId', `at least minId (${minId})`, options.maxId);
  const prefetchAt = options.prefetchAt ?? 0.1;
  if (typeof prefetchAt !== 'number' || !(prefetchAt >= 0 && prefetchAt < 1)) {
    throw new InvalidArgumentError('prefetchAt', 'a share of a segment in [0, 1), such as 0.1', prefetchAt);
  }
  const onError = options.onError;
  if (onError !== undefined && typeof onError !== 'function') {
    throw new InvalidArgumentError('onError', 'a function', onError);
  }
  return {
    tag,
    store: storeOption(options, clock),
    step,
    maxStep,
    targetSegmentMs: positiveMs('targetSegmentMs', options.targetSegmentMs, 15 * 60_000),
    prefetchAt,
    minId,
    maxId,
    retryMs: nonNegativeMs('retryMs', options.retryMs, 1000),
    clock,
    onError,
  };
}

function storeOption(options: SegmentAllocatorOptions, clock: Clock): SegmentStore {
  const { client, store } = options as { client?: unknown; store?: unknown };
  if (client !== undefined && store !== undefined) {
    throw new InvalidArgumentError('store', 'absent when client is given (one counter, one place)', store);
  }
  if (store !== undefined) {
    const s = store as Partial<SegmentStore> | null;
    if (
      s === null ||
      typeof s !== 'object' ||
      typeof s.take !== 'function' ||
      typeof s.prepare !== 'function'
    ) {
      throw new InvalidArgumentError('store', 'a SegmentStore (redisSegmentStore(redis), ...)', store);
    }
    return s as SegmentStore;
  }
  if (client === undefined) {
    throw new InvalidArgumentError(
      'client',
      'a SqlClient (pgSqlClient(pool), ...) or a store option',
      client,
    );
  }
  const sql = options as { table?: unknown; createTable?: unknown };
  return sqlSegmentStore(assertSqlClient(client, 'client'), {
    table: (sql.table as string | undefined) ?? DEFAULT_SEGMENT_TABLE,
    createTable: optionalBoolean('createTable', sql.createTable, true),
    clock,
  });
}

function stepOption(name: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new InvalidArgumentError(name, `an integer in 1..${max}`, value);
  }
  return value;
}
