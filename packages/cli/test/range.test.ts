import { idRangeForTime, layouts } from '@snowkey/core';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

describe('snowkey range', () => {
  test('GIVEN March 2026 in the default layout THEN it prints the bounds and the WHERE clause', async () => {
    const { code, stdout, stderr } = await runCli([
      'range',
      '2026-03-01T00:00:00Z',
      '2026-03-31T23:59:59.999Z',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'minId  153652455014400000',
        'maxId  164886478847999999',
        'sql    WHERE id BETWEEN 153652455014400000 AND 164886478847999999',
        '',
      ].join('\n'),
    );
  });

  test('GIVEN ms since 1970, another layout and --json THEN it prints the same range core computes, ids as strings', async () => {
    const from = Date.UTC(2026, 2, 1, 0, 0, 0, 5);
    const to = Date.UTC(2026, 2, 1, 0, 0, 1, 1);
    const { code, stdout } = await runCli([
      'range',
      String(from),
      String(to),
      '--layout',
      'sonyflake',
      '--json',
    ]);
    expect(code).toBe(0);
    const { minId, maxId } = idRangeForTime(from, to, { layout: layouts.sonyflake });
    expect(JSON.parse(stdout)).toEqual({ minId: String(minId), maxId: String(maxId) });
  });

  test.each([
    [
      'from after to',
      ['2026-03-02T00:00:00Z', '2026-03-01T00:00:00Z'],
      /^error: "to" must be a time at or after "from"/,
    ],
    [
      'an unreadable time',
      ['yesterday', '2026-03-01T00:00:00Z'],
      /^error: "<from>" must be ms since 1970 or an ISO date/,
    ],
  ])(
    'GIVEN %s THEN it exits 2 naming the argument and prints nothing on stdout',
    async (_what, args, message) => {
      const { code, stdout, stderr } = await runCli(['range', ...args]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    },
  );

  test('GIVEN a time before the layout\'s epoch THEN it exits 1 with TimestampOutOfRangeError naming "from"', async () => {
    const { code, stdout, stderr } = await runCli([
      'range',
      '2024-12-31T23:59:59.999Z',
      '2026-03-01T00:00:00Z',
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^error: TimestampOutOfRangeError: "from": timestamp 2024-12-31T23:59:59\.999Z is before the epoch of layout "snowkey"/,
    );
  });
});
