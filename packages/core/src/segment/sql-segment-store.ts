import { type Clock, readClock } from '../clock.js';
import { InvalidArgumentError } from '../errors.js';
import type { SqlClient } from '../sql-client.js';
import { SegmentStoreError } from './segment-errors.js';
import type { SegmentGrant, SegmentRequest, SegmentStore } from './segment-store.js';
import { SegmentStatements } from './segment-table.js';

/**
 * How many times one take re-reads the row after other allocators moved it first. Each lost round
 * means another allocator won a range, so this bounds only how unlucky one caller can be.
 */
const TAKE_ROUNDS = 64;

/** Options of {@link sqlSegmentStore}. */
export interface SqlSegmentStoreOptions {
  readonly table: string;
  readonly createTable: boolean;
  readonly clock: Clock;
}

/**
 * The segment store over a {@link SqlClient}: one row per tag in the allocation table
 * ({@link segmentTableDdl}). A take reads `max_id` and then moves it with one conditional
 * `UPDATE ... WHERE tag = ? AND max_id = <what it read>`: atomic on PostgreSQL, MySQL/MariaDB and
 * SQLite without a transaction, so it works through any client that runs one statement per call.
 * The loser of a race changes no row and reads again.
 */
export function sqlSegmentStore(client: SqlClient, options: SqlSegmentStoreOptions): SegmentStore {
  const sql = new SegmentStatements(client.dialect, options.table);
  const now = () => Math.floor(readClock(options.clock));
  const fail = (what: string, tag: string, err: unknown) =>
    new SegmentStoreError(
      `${what} for tag "${tag}" in "${sql.table}" (${client.dialect}): ${String(err)}`,
      tag,
      client.dialect,
      {
        cause: err,
      },
    );

  async function readRow(tag: string): Promise<{ maxId: bigint; step: number } | undefined> {
    const [row] = await client.query<Record<string, unknown>>(sql.read, [tag]);
    if (row === undefined) return undefined;
    return { maxId: toBigint(row.max_id, 'max_id'), step: toStep(row.step) };
  }

  async function createTable(tag: string): Promise<void> {
    try {
      await client.execute(sql.create);
    } catch (err) {
      // Concurrent CREATE TABLE IF NOT EXISTS can fail on PostgreSQL; the table then exists.
      const exists = await client.query(sql.probe).then(
        () => true,
        () => false,
      );
      if (!exists) throw fail('could not create the segment table', tag, err);
    }
  }

  return {
    name: client.dialect,
    async prepare(tag, defaults) {
      if (options.createTable) await createTable(tag);
      try {
        const t = now();
        await client.execute(sql.insertIfAbsent, [tag, String(defaults.minId - 1n), defaults.step, t, t]);
        const row = await readRow(tag);
        if (!row) throw new Error(`the row of tag "${tag}" is missing right after it was inserted`);
        return { step: row.step };
      } catch (err) {
        if (err instanceof SegmentStoreError) throw err;
        throw fail('could not prepare the segment row', tag, err);
      }
    },
    async take({ tag, count, minId, maxId }: SegmentRequest): Promise<SegmentGrant | undefined> {
      try {
        for (let round = 0; round < TAKE_ROUNDS; round++) {
          const row = await readRow(tag);
          if (!row) throw new Error(`tag "${tag}" has no row (was it deleted?)`);
          const floor = row.maxId < minId - 1n ? minId - 1n : row.maxId;
          if (floor >= maxId) return undefined;
          const end = floor + BigInt(count) > maxId ? maxId : floor + BigInt(count);
          const changed = await client.execute(sql.advance, [String(end), now(), tag, String(row.maxId)]);
          if (changed === 1) return { first: floor + 1n, last: end, step: row.step };
          await jitter(round);
        }
      } catch (err) {
        throw fail(`could not take a segment of ${count} ids`, tag, err);
      }
      throw new SegmentStoreError(
        `could not take a segment of ${count} ids for tag "${tag}" in "${sql.table}" (${client.dialect}): other allocators moved max_id first ${TAKE_ROUNDS} times in a row`,
        tag,
        client.dialect,
      );
    },
  };
}

/**
 * A random pause of up to 2^round ms (at most 50) after a lost race, so allocators that keep
 * reading the same max_id in lockstep (several of one tag in one process, on SQLite) fall out of step.
 */
function jitter(round: number): Promise<void> {
  const ms = Math.random() * Math.min(2 ** round, 50);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A BIGINT as the driver returned it (text, as the query asks; a safe number or a bigint from odd clients). */
function toBigint(value: unknown, column: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new InvalidArgumentError(`segment row column ${column}`, 'an integer read exactly', value);
}

function toStep(value: unknown): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' || typeof value === 'bigint'
        ? Number(value)
        : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('segment row column step', 'a positive integer', value);
  }
  return n;
}
