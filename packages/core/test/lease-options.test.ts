import { describe, expect, test } from 'vitest';
import {
  defineLayout,
  InvalidArgumentError,
  layouts,
  leaseNodeId,
  mysqlSqlClient,
  pgSqlClient,
  type SqlClient,
  sqliteSqlClient,
} from '../src/index.js';

/** A client that records every statement: validation must fail before any SQL is sent. */
function recordingClient(dialect: unknown) {
  const sent: string[] = [];
  const client = {
    dialect,
    query: async (sql: string) => {
      sent.push(sql);
      return [];
    },
    execute: async (sql: string) => {
      sent.push(sql);
      return 0;
    },
  } as unknown as SqlClient;
  return { client, sent };
}

const noNodeBits = defineLayout({ name: 'solo', timestampBits: 41, nodeBits: {}, sequenceBits: 12 });

describe('leaseNodeId input checks', () => {
  const cases: [string, string, object, RegExp][] = [
    [
      'a layout with no node bits',
      'layout',
      { layout: noNodeBits },
      /at least one node bit .*received "layout \\"solo\\" with 0 node bits"/,
    ],
    [
      'a TTL shorter than the renewal interval',
      'ttlMs',
      { ttlMs: 5_000, renewEveryMs: 10_000 },
      /"ttlMs" must be longer than renewEveryMs \(10000 ms\) \(received 5000\)/,
    ],
    ['a TTL equal to the renewal interval', 'ttlMs', { ttlMs: 5_000, renewEveryMs: 5_000 }, /longer than/],
    [
      'a margin that leaves no time to renew',
      'expiryMarginMs',
      { ttlMs: 9_000, renewEveryMs: 3_000, expiryMarginMs: 6_000 },
      /below ttlMs - renewEveryMs \(6000 ms\)/,
    ],
    ['a fractional TTL', 'ttlMs', { ttlMs: 1.5 }, /positive integer number of ms \(received 1.5\)/],
    ['a table name that is not an identifier', 'table', { table: 'leases; DROP TABLE x' }, /an identifier/],
    ['a clock that is not a function', 'clock', { clock: 5 }, /a function/],
    [
      'releaseOnSignals with a non-signal',
      'releaseOnSignals',
      { releaseOnSignals: ['TERM'] },
      /signal names/,
    ],
    [
      'a negative signal release timeout',
      'signalReleaseTimeoutMs',
      { signalReleaseTimeoutMs: -1 },
      /non-negative integer number of ms \(received -1\)/,
    ],
  ];
  test.each(cases)(
    'GIVEN %s THEN it throws InvalidArgumentError naming "%s" and sends no SQL',
    async (_given, argument, options, message) => {
      const { client, sent } = recordingClient('postgres');
      const err = await leaseNodeId({ client, layout: layouts.default, ...options }).catch((e) => e);
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err.argument).toBe(argument);
      expect(err.message).toMatch(message);
      expect(sent).toEqual([]);
    },
  );

  test.each([['oracle'], ['postgresql'], [undefined]])(
    'GIVEN a client of unknown dialect %j THEN it throws InvalidArgumentError naming client.dialect and the dialects',
    async (dialect) => {
      const { client, sent } = recordingClient(dialect);
      const err = await leaseNodeId({ client, layout: layouts.default }).catch((e) => e);
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err.argument).toBe('client.dialect');
      expect(err.message).toMatch(/must be one of postgres, mysql, sqlite/);
      expect(sent).toEqual([]);
    },
  );

  test.each([
    ['NaN', () => Number.NaN],
    ['Infinity', () => Number.POSITIVE_INFINITY],
    ['a string', () => '1767225600000'],
    ['undefined', () => undefined],
  ])(
    'GIVEN a clock that reads %s THEN it throws InvalidArgumentError naming clock and sends no SQL',
    async (_reading, clock) => {
      const { client, sent } = recordingClient('postgres');
      const err = await leaseNodeId({ client, layout: layouts.default, clock: clock as never }).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err.argument).toBe('clock');
      expect(err.message).toMatch(/finite number of ms since 1970/);
      expect(sent).toEqual([]);
    },
  );

  test('GIVEN no client THEN it throws InvalidArgumentError naming client', async () => {
    const err = await leaseNodeId({ layout: layouts.default } as never).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.argument).toBe('client');
  });
});

describe('SqlClient driver factories input checks', () => {
  test.each([
    ['pgSqlClient', () => pgSqlClient({} as never), 'pgSqlClient(pool)'],
    ['mysqlSqlClient', () => mysqlSqlClient(null as never), 'mysqlSqlClient(pool)'],
    ['sqliteSqlClient', () => sqliteSqlClient({ query() {} } as never), 'sqliteSqlClient(db)'],
  ])(
    'GIVEN %s an object without the driver method THEN it throws InvalidArgumentError',
    (_name, make, argument) => {
      expect(make).toThrow(InvalidArgumentError);
      expect(make).toThrow(`"${argument}"`);
    },
  );
});
