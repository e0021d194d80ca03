import { layouts, leaseNodeId, manualClock, SegmentAllocator, type SqlClient } from '@snowkey/core';
import { beforeAll, expect, test } from 'vitest';
import type { DialectContext } from '../helpers/describe-each-dialect.js';

/**
 * What a SqlClient does with a statement while the application holds a transaction open on the
 * connection the client was built from:
 * - `'runs apart'`: it runs on another connection and commits at once (a pool);
 * - `'refused'`: it fails at once without running (core then reports a SegmentStoreError or a
 *   WorkerIdLeaseError whose `cause` says why);
 * - `'waits'`: it waits until the transaction ends (one connection, which the transaction holds).
 * Never: it runs inside the transaction and rolls back with it.
 */
export type WhileTransactionOpen = 'runs apart' | 'refused' | 'waits';

export interface AppTransactionContractOptions {
  /** The SqlClient under test, built on the same ORM instance as `rolledBack`. */
  client: () => SqlClient;
  /**
   * Opens an application transaction through that ORM instance, inserts the row (1, 'app') into
   * `table` in it (so it holds the write lock), awaits `work` (which throws), and lets the
   * transaction roll back on that error; resolves or rejects as the ORM does.
   */
  rolledBack(table: string, work: () => Promise<void>): Promise<unknown>;
  whileOpen: WhileTransactionOpen;
  /** With `'refused'`: what the refusal (core's error's `cause`) matches. */
  refusal?: object;
}

const T0 = Date.UTC(2026, 0, 1);
const APP_TABLE = 'atx_app';
const LEASE_TABLE = 'atx_leases';
const SEGMENT_TABLE = 'atx_segments';
const STEP = 10;
/** Event-loop turns a waiting client gets inside the transaction, to run its statement if it would. */
const TURNS = 20;
/** Counts tags across every use of the contract in one file, so each test has a row of its own. */
let tags = 0;

/**
 * The promise core's leases and segment allocator rest on, checked through an adapter's SqlClient:
 * what the client writes never rolls back with a transaction the application opened on the same
 * ORM connection. Registered inside a `describeEachDialect` block; every result is read back with
 * raw SQL through the harness, in the tables `atx_app`, `atx_leases` and `atx_segments` (created when
 * missing; a block may run the contract more than once).
 *
 * @example
 * describeEachDialect('typeormSqlClient', (ctx) => {
 *   appTransactionContract(ctx, {
 *     client: () => typeormSqlClient(ds),
 *     rolledBack: (table, work) => ds.transaction(async (m) => {
 *       await m.query(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`);
 *       await work();
 *     }),
 *     whileOpen: ctx.dialect === 'sqlite' ? 'refused' : 'runs apart',
 *   });
 * });
 */
export function appTransactionContract(ctx: DialectContext, options: AppTransactionContractOptions): void {
  const { whileOpen } = options;
  const rollback = new Error('the application rolls its transaction back');

  beforeAll(async () => {
    await ctx.db.query(
      `CREATE TABLE IF NOT EXISTS ${APP_TABLE} (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL)`,
    );
  });

  /** Runs `work` in an application transaction that then rolls back, and checks that it did. */
  async function inRolledBackTransaction(work: () => Promise<void>): Promise<void> {
    await expect(
      options.rolledBack(APP_TABLE, async () => {
        await work();
        throw rollback;
      }),
    ).rejects.toThrow(rollback.message);
    expect(await ctx.db.query(`SELECT id FROM ${APP_TABLE}`)).toEqual([]);
  }

  const maxId = async (tag: string) =>
    (await ctx.db.query<{ max_id: string }>(`SELECT max_id FROM ${SEGMENT_TABLE} WHERE tag = ?`, [tag]))[0]
      ?.max_id;

  /**
   * Starts `statement` (a client call) inside a rolled-back application transaction: awaited there
   * unless the client waits for the transaction, which would then never end. Resolves to what it
   * settled with, and to whether it had settled while the transaction was still open.
   */
  async function startedInRolledBackTransaction(statement: () => Promise<unknown>) {
    let settled = false;
    let outcome!: Promise<unknown>;
    let settledInside = false;
    await inRolledBackTransaction(async () => {
      outcome = statement().then(
        (value) => value,
        (err: unknown) => err,
      );
      void outcome.then(() => {
        settled = true;
      });
      if (whileOpen !== 'waits') await outcome;
      // A client that should wait gets event-loop turns to show that it does not.
      else for (let turn = 0; turn < TURNS && !settled; turn++) await new Promise(setImmediate);
      settledInside = settled;
    });
    return { outcome: await outcome, settledInside };
  }

  function expectOutcome(outcome: unknown, settledInside: boolean, done: string, coreError: string): void {
    if (whileOpen === 'refused') {
      expect(outcome).toMatchObject({ name: coreError, cause: options.refusal ?? {} });
    } else {
      expect(outcome).toBe(done);
      expect(settledInside).toBe(whileOpen === 'runs apart');
    }
  }

  test(`GIVEN a segment refill inside an application transaction that rolls back THEN every id handed out is below the table's max_id AND the client's statement ${whileOpen}`, async () => {
    const tag = `atx_${++tags}`;
    const clock = manualClock(T0);
    // A fixed step of 10, fetched only when a caller asks (nextIds(9) leaves one id: no prefetch).
    const allocator = () =>
      new SegmentAllocator({
        client: options.client(),
        table: SEGMENT_TABLE,
        tag,
        step: STEP,
        maxStep: STEP,
        prefetchAt: 0.99,
        retryMs: 0,
        clock: clock.now,
      });
    const first = allocator();
    await first.ready();
    const handedOut = first.nextIds(STEP - 1);
    expect(await maxId(tag)).toBe(String(STEP));

    const { outcome, settledInside } = await startedInRolledBackTransaction(() =>
      first.ready(2).then(() => 'refilled'),
    );
    await first.ready(2);
    handedOut.push(...first.nextIds(first.buffered));
    const persisted = BigInt((await maxId(tag))!);
    expect(handedOut.filter((id) => id > persisted)).toEqual([]);
    const second = allocator();
    await second.ready();
    expect(second.nextIds(second.buffered).filter((id) => handedOut.includes(id))).toEqual([]);
    expect(new Set(handedOut).size).toBe(handedOut.length);
    await first.close();
    await second.close();

    expectOutcome(outcome, settledInside, 'refilled', 'SegmentStoreError');
  });

  test(`GIVEN a lease renewal inside an application transaction that rolls back THEN the lease never counts on an expiry or ceiling the table does not hold AND the client's statement ${whileOpen}`, async () => {
    const clock = manualClock(T0);
    const lease = await leaseNodeId({
      client: options.client(),
      layout: layouts.default,
      table: LEASE_TABLE,
      clock: clock.now,
      heartbeat: false,
    });
    const row = async () =>
      (
        await ctx.db.query<{ expires_at: string; ceiling: string }>(
          `SELECT expires_at, ceiling FROM ${LEASE_TABLE} WHERE node_id = ?`,
          [lease.nodeId],
        )
      )[0];
    expect(await row()).toEqual({ expires_at: String(lease.expiresAt), ceiling: String(lease.ceiling) });
    clock.advance(5_000);

    const { outcome, settledInside } = await startedInRolledBackTransaction(() =>
      lease.renew().then(() => 'renewed'),
    );
    expect(await row()).toEqual({ expires_at: String(lease.expiresAt), ceiling: String(lease.ceiling) });
    await lease.release();

    expectOutcome(outcome, settledInside, 'renewed', 'WorkerIdLeaseError');
  });
}
