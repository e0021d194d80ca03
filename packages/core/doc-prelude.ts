// The free variables of @snowkey/core's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code".
import type { Histogram } from '@opentelemetry/api';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { LeaseInspector } from './src/adapter.js';
import type {
  IdGenerator,
  InvalidLayoutError,
  LeaseNodeIdOptions,
  NodeLease,
  SegmentAllocator,
  Snowflake,
  SqlClient,
} from './src/index.js';

export { metrics } from '@opentelemetry/api';
export { default as Database } from 'better-sqlite3';
export { default as mysql } from 'mysql2/promise';
export { default as pg } from 'pg';
export * from './src/adapter.js';
// Internal names some examples show.
export { monotonicClockOf, readClock } from './src/clock.js';
export type { DecodedParts } from './src/decode.js';
export * from './src/index.js';
export { parseHolderToken } from './src/lease/holder-token.js';
export { releaseOnSignal } from './src/lease/signal-release.js';
export * from './src/node.js';
export * from './src/otel.js';
export { nextStep, type StepBounds, stepBounds } from './src/segment/dynamic-step.js';
export { idBound, MAX_SIGNED_ID } from './src/segment/id-range.js';
export { toStoreError } from './src/segment/segment-errors.js';
export { checkGrant } from './src/segment/segment-store.js';
export type { NodeIdOptions, SnowflakeCommonOptions } from './src/snowflake.js';

/** A generator of the default layout. */
export declare const gen: Snowflake;
/** An id, a body of JSON text, and the route parameters of a web request. */
export declare const id: bigint;
export declare const body: string;
export declare const req: { params: { id: string } };
/** A lease, the options it was taken with, and the SqlClient it uses. */
export declare const lease: NodeLease;
export declare const leaseOptions: LeaseNodeIdOptions;
export declare const client: SqlClient;
export declare const nodeId: number;
export declare const holder: string;
/** A caller's options object before it is checked. */
export declare const options: Record<string, unknown>;
/** Drivers' connections. */
export declare const pool: pg.Pool;
export declare const db: Database.Database;
export declare const sqlite: Database.Database;
/** Segment allocators (one per tag, e.g. 'orders'), and a way to page an operator. */
export declare const allocator: SegmentAllocator;
export declare const orders: SegmentAllocator;
export declare const alertOps: (problem: unknown) => void;
/** An InvalidLayoutError caught from defineLayout. */
export declare const err: InvalidLayoutError;
/** A generator of any kind, and a row an adapter fills. */
export declare const generator: IdGenerator;
export declare const entity: { id?: bigint };
/** What a fence example knows: the previous holder's last timestamp and this lease's ceiling. */
export declare const lastKnownHighWater: number;
export declare const ceiling: number;
/** Reads the leases of a store (`snowkey leases`), and a histogram of the application's. */
export declare const inspector: LeaseInspector;
export declare const waits: Histogram;
