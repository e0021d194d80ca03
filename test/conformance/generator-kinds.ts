import {
  SegmentAllocator,
  type SegmentAllocatorOptions,
  Snowflake,
  type SqlClient,
  sqliteSqlClient,
} from '@snowkey/core';
import type { TestDatabase } from '../helpers/test-database.js';
import type { AdapterDriver } from './adapter-driver.js';
import { type RecordingGenerator, recordingGenerator } from './recording-generator.js';

/** The two id systems every conformance case runs with. */
export type GeneratorKind = 'snowflake' | 'segment';

/**
 * The kinds to run, from `GENERATORS` (a comma list such as `segment`); both by default.
 *
 * @example
 * // GENERATORS=segment vitest run test/adapters
 * selectedGeneratorKinds(); // ['segment']
 */
export function selectedGeneratorKinds(): GeneratorKind[] {
  const all: GeneratorKind[] = ['snowflake', 'segment'];
  const raw = process.env.GENERATORS?.trim();
  if (!raw) return all;
  const picked = raw.split(',').map((s) => s.trim());
  for (const k of picked) {
    if (!all.includes(k as GeneratorKind)) {
      throw new Error(`GENERATORS must be a comma list of ${all.join(', ')} (received "${raw}")`);
    }
  }
  return picked as GeneratorKind[];
}

/** A generator a conformance session uses, and what it holds open. */
export interface SessionGenerator {
  readonly generator: RecordingGenerator;
  /** Resolves once `count` ids can be taken without a wait (a segment allocator's `ready(count)`). */
  ready(count: number): Promise<void>;
  close(): Promise<void>;
}

/** The segment table's tag the conformance allocators share. */
export const CONFORMANCE_TAG = 'sk_item';
/** Above every caller-set id of the suite but 42 and 7, so generated ids sort as the cases expect. */
export const CONFORMANCE_MIN_ID = 1000n;

/**
 * A Snowflake with `workerId`, or a segment allocator on the tag {@link CONFORMANCE_TAG} of `db`, ready.
 *
 * @example
 * const { generator, ready, close } = await sessionGenerator('segment', driver, ctx.db);
 */
export async function sessionGenerator(
  kind: GeneratorKind,
  driver: AdapterDriver,
  db: TestDatabase,
  options: { workerId?: number; segment?: Partial<SegmentAllocatorOptions> } = {},
): Promise<SessionGenerator & { readonly allocator?: SegmentAllocator }> {
  if (kind === 'snowflake') {
    return {
      generator: recordingGenerator(new Snowflake({ workerId: options.workerId ?? 1 })),
      ready: async () => {},
      close: async () => {},
    };
  }
  const sql = await allocatorClient(driver, db);
  const allocator = new SegmentAllocator({
    client: sql.client,
    tag: CONFORMANCE_TAG,
    minId: CONFORMANCE_MIN_ID,
    ...options.segment,
  } as SegmentAllocatorOptions);
  await allocator.ready();
  return {
    allocator,
    generator: recordingGenerator(allocator),
    ready: (count) => allocator.ready(count),
    close: async () => {
      await allocator.close();
      await sql.close();
    },
  };
}

/**
 * The adapter's own SqlClient on PostgreSQL and MySQL (pooled: each statement runs on its own).
 * On SQLite the adapters' clients share the ORM's one connection and keep out of its transactions
 * by refusing or waiting (./app-transaction-contract.ts), which would make the suite's transactional
 * cases depend on when a prefetch lands: the allocator gets a connection of its own, which fails at
 * once (`timeout: 0`) instead of blocking the event loop while the ORM holds the write lock; a
 * failed take is retried.
 */
async function allocatorClient(
  driver: AdapterDriver,
  db: TestDatabase,
): Promise<{ client: SqlClient; close(): Promise<void> }> {
  if (db.dialect !== 'sqlite') return driver.openSqlClient(db);
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(db.filename!, { timeout: 0 });
  return { client: sqliteSqlClient(conn), close: async () => void conn.close() };
}
