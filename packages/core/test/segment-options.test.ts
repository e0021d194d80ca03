import { describe, expect, test } from 'vitest';
import {
  InvalidArgumentError,
  redisSegmentStore,
  SegmentAllocator,
  type SegmentAllocatorOptions,
  type SqlClient,
  segmentTableDdl,
  shardIdRange,
} from '../src/index.js';
import { caught } from './caught.js';
import { manualSegmentStore } from './fixtures/manual-segment-store.js';

const sqlite: SqlClient = {
  dialect: 'sqlite',
  query: async () => [],
  execute: async () => 0,
};
const { store } = manualSegmentStore();

describe('SegmentAllocator options', () => {
  test.each<[string, string, Record<string, unknown>, RegExp]>([
    ['no tag', 'tag', { tag: undefined }, /a string of 1 to 128 characters/],
    ['an empty tag', 'tag', { tag: '' }, /received ""/],
    ['a tag of 129 characters', 'tag', { tag: 'x'.repeat(129) }, /1 to 128/],
    ['neither client nor store', 'client', { store: undefined }, /a SqlClient .* or a store option/],
    ['both client and store', 'store', { client: sqlite }, /absent when client is given/],
    ['a store without take', 'store', { store: { name: 'x', prepare: async () => ({}) } }, /a SegmentStore/],
    [
      'a client of an unknown dialect',
      'client.dialect',
      { store: undefined, client: { ...sqlite, dialect: 'mssql' } },
      /one of postgres, mysql, sqlite/,
    ],
    [
      'a table name that is not an identifier',
      'table',
      { store: undefined, client: sqlite, table: 'x; DROP TABLE y' },
      /an identifier/,
    ],
    ['step 0', 'step', { step: 0 }, /an integer in 1\.\.2147483647 \(received 0\)/],
    ['a step above the INTEGER column', 'step', { step: 2 ** 31 }, /1\.\.2147483647/],
    ['maxStep below step', 'maxStep', { step: 1000, maxStep: 10 }, /at least step \(1000\) \(received 10\)/],
    ['prefetchAt 1', 'prefetchAt', { prefetchAt: 1 }, /\[0, 1\)/],
    ['minId 0', 'minId', { minId: 0n }, /in 1\.\.2\^63-1 \(received 0n\)/],
    ['a maxId Number above 2^53', 'maxId', { maxId: 2 ** 60 }, /a bigint \(or a safe-integer Number\)/],
    ['maxId 2^63', 'maxId', { maxId: 2n ** 63n }, /1\.\.2\^63-1/],
    ['maxId below minId', 'maxId', { minId: 100n, maxId: 99n }, /at least minId \(100\)/],
    ['a negative retryMs', 'retryMs', { retryMs: -1 }, /non-negative integer number of ms/],
    ['a targetSegmentMs of 0', 'targetSegmentMs', { targetSegmentMs: 0 }, /positive integer number of ms/],
    ['a clock that is not a function', 'clock', { clock: 5 }, /a function/],
    ['a clock that reads NaN', 'clock', { clock: () => Number.NaN }, /finite number/],
    ['an onError that is not a function', 'onError', { onError: 'log' }, /a function/],
  ])('GIVEN %s THEN InvalidArgumentError naming "%s"', (_case, argument, patch, message) => {
    const err = caught(
      () => new SegmentAllocator({ store, tag: 'orders', ...patch } as SegmentAllocatorOptions),
    );
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ argument });
    expect((err as Error).message).toMatch(message);
  });

  test('GIVEN maxId as Number.MAX_SAFE_INTEGER THEN it is taken exactly as a bigint bound', () => {
    expect(() => new SegmentAllocator({ store, tag: 't', maxId: Number.MAX_SAFE_INTEGER })).not.toThrow();
  });

  test.each([null, {}, { sendCommand: 1 }])(
    'GIVEN redisSegmentStore(%o) THEN InvalidArgumentError naming client',
    (client) => {
      expect(caught(() => redisSegmentStore(client as never))).toMatchObject({
        name: 'InvalidArgumentError',
        argument: 'client',
      });
    },
  );
});

describe('shardIdRange', () => {
  test('GIVEN 3 shards of 1..10 THEN the slices are disjoint, in order, and each holds 3 ids', () => {
    const slices = [0, 1, 2].map((shard) => shardIdRange({ shard, shards: 3, minId: 1n, maxId: 10n }));
    expect(slices).toEqual([
      { minId: 1n, maxId: 3n },
      { minId: 4n, maxId: 6n },
      { minId: 7n, maxId: 9n },
    ]);
  });

  test('GIVEN 4096 servers within Number.MAX_SAFE_INTEGER THEN server 7 gets 2^41-1 ids, and the last server ends at or below 2^53-1', () => {
    const seven = shardIdRange({ shard: 7, shards: 4096, maxId: Number.MAX_SAFE_INTEGER });
    expect(seven).toEqual({ minId: 15393162788858n, maxId: 17592186044408n });
    expect(seven.maxId - seven.minId + 1n).toBe(2n ** 41n - 1n);
    const last = shardIdRange({ shard: 4095, shards: 4096, maxId: Number.MAX_SAFE_INTEGER });
    expect(last.maxId <= 2n ** 53n - 1n).toBe(true);
  });

  test.each<[string, string, object]>([
    ['shard equal to shards', 'shard', { shard: 4, shards: 4 }],
    ['a negative shard', 'shard', { shard: -1, shards: 4 }],
    ['0 shards', 'shards', { shard: 0, shards: 0 }],
    ['more shards than ids', 'shards', { shard: 0, shards: 11, maxId: 10n }],
  ])('GIVEN %s THEN InvalidArgumentError naming "%s"', (_case, argument, options) => {
    expect(caught(() => shardIdRange(options as never))).toMatchObject({
      name: 'InvalidArgumentError',
      argument,
    });
  });
});

describe('segmentTableDdl', () => {
  test('GIVEN a table name THEN the DDL creates it with tag, max_id, step and both timestamps', () => {
    expect(segmentTableDdl('mysql', 'app.ids')).toBe(`CREATE TABLE IF NOT EXISTS app.ids (
  tag VARCHAR(128) NOT NULL PRIMARY KEY,
  max_id BIGINT NOT NULL,
  step INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
)`);
  });
});
