import { decode, layouts, manualClock } from '@snowkey/core';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

const T = Date.UTC(2026, 0, 1);

describe('snowkey generate', () => {
  test('GIVEN -n 3 --worker-id 5 at a fixed clock THEN three increasing ids of worker 5 at that time', async () => {
    const clock = manualClock(T);
    const { code, stdout, stderr } = await runCli(['generate', '-n', '3', '--worker-id', '5'], {
      clock: clock.now,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const ids = stdout.trimEnd().split('\n').map(BigInt);
    expect(ids).toHaveLength(3);
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    for (const id of ids) {
      const d = decode(id, { layout: layouts.snowkey });
      expect(d.workerId).toBe(5);
      expect(d.timestamp).toBeGreaterThanOrEqual(T);
      expect(d.timestamp).toBeLessThanOrEqual(T + 2);
    }
  });

  test('GIVEN --layout twitter with both node flags and --json THEN a JSON array of strings that decode to those fields', async () => {
    const { code, stdout } = await runCli(
      ['generate', '--layout', 'twitter', '--datacenter-id', '3', '--worker-id', '7', '-n', '2', '--json'],
      { clock: manualClock(T).now },
    );
    expect(code).toBe(0);
    const ids: string[] = JSON.parse(stdout);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      expect(id).toMatch(/^\d+$/);
      expect(decode(id, { layout: layouts.twitter })).toMatchObject({ datacenterId: 3, workerId: 7 });
    }
  });

  test('GIVEN 10000 ids in borrow mode on a slow clock THEN all are unique and strictly increasing', async () => {
    const { code, stdout } = await runCli(
      ['generate', '-n', '10000', '--node-id', '1', '--sequence-overflow', 'borrow'],
      { clock: manualClock(T, 0.001).now },
    );
    expect(code).toBe(0);
    const ids = stdout.trimEnd().split('\n').map(BigInt);
    expect(ids).toHaveLength(10000);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });

  test.each([
    ['SNOWKEY_WORKER_ID', { SNOWKEY_WORKER_ID: '9' }, 9],
    ['SNOWKEY_NODE_ID', { SNOWKEY_NODE_ID: '1023' }, 1023],
  ])('GIVEN no node flag but %s in the environment THEN it is used', async (_, env, workerId) => {
    const { code, stdout } = await runCli(['generate'], { env, clock: manualClock(T).now });
    expect(code).toBe(0);
    expect(decode(stdout.trim(), { layout: layouts.snowkey }).workerId).toBe(workerId);
  });

  test.each([
    [
      'no node id at all',
      ['generate'],
      {},
      /"--worker-id" must be an integer in 0\.\.1023 \(or pass --node-id/,
    ],
    [
      'a worker id out of range',
      ['generate', '--worker-id', '1024'],
      {},
      /"workerId" must be an integer in 0\.\.1023 \(received 1024\)/,
    ],
    [
      'a node flag of another layout',
      ['generate', '--datacenter-id', '1'],
      {},
      /"--datacenter-id" must be a node field of layout "snowkey"/,
    ],
    [
      'one of two node fields',
      ['generate', '--layout', 'twitter', '--worker-id', '1'],
      {},
      /"datacenterId" must be an integer in 0\.\.31/,
    ],
    [
      'a packed and a named node id',
      ['generate', '--node-id', '1', '--worker-id', '1'],
      {},
      /"--worker-id" must be absent when --node-id is given/,
    ],
    [
      '-n 0',
      ['generate', '-n', '0', '--worker-id', '1'],
      {},
      /"--count" must be an integer in 1\.\.1000000 \(received "0"\)/,
    ],
    ['-n 1e3', ['generate', '-n', '1e3', '--worker-id', '1'], {}, /"--count" must be .*received "1e3"/],
    [
      'a bad overflow mode',
      ['generate', '--worker-id', '1', '--sequence-overflow', 'skip'],
      {},
      /"--sequence-overflow" must be wait or borrow/,
    ],
    ['a malformed env variable', ['generate'], { SNOWKEY_WORKER_ID: 'seven' }, /SNOWKEY_WORKER_ID/],
    [
      'an unknown layout',
      ['generate', '--layout', 'snowflake', '--worker-id', '1'],
      {},
      /"--layout" must be one of/,
    ],
  ])('GIVEN %s THEN it exits 2 with a message naming it', async (_, argv, env, message) => {
    const { code, stdout, stderr } = await runCli(argv, { env, clock: manualClock(T).now });
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });

  test('GIVEN a clock before the layout epoch THEN it exits 1 with the typed error (a failure, not bad usage)', async () => {
    const { code, stderr } = await runCli(['generate', '--worker-id', '1'], {
      clock: manualClock(Date.UTC(2020, 0, 1)).now,
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: TimestampOutOfRangeError: .*before the epoch of layout "snowkey"/);
  });
});
