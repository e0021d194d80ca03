import { decode, layouts } from '@snowkey/core';
import { describe, expect, test } from 'vitest';
import { layoutFacts } from '../src/layout-facts.js';
import { runCli } from './run-cli.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('snowkey layout', () => {
  test('GIVEN no name THEN it describes the default snowkey layout with its diagram and dates', async () => {
    const { code, stdout } = await runCli(['layout']);
    expect(code).toBe(0);
    expect(stdout).toContain('layout snowkey: 63 bits');
    expect(stdout).toContain('│ 0 │ timestamp 41            │ workerId 10 │ sequence 12 │');
    expect(stdout).toMatch(/ids per ms\s+4,096 per node \(4,096,000 per second\)/);
    expect(stdout).toMatch(/nodes\s+1,024 \(workerId 0\.\.1023\)/);
    expect(stdout).toMatch(/range\s+69\.7 years/);
    // 2^41 ms after 2025-01-01T00:00:00Z, minus the last ms
    expect(stdout).toMatch(/runs out\s+2094-09-07T15:47:35\.551Z/);
    // 2^31 ms (2^53 >> 22) after the epoch
    expect(stdout).toMatch(/passes 2\^53\s+2025-01-25T20:31:23\.648Z/);
    expect(stdout).toMatch(/passes 2\^63-1\s+never/);
  });

  test('GIVEN the 37+20+16 bit game layout THEN it is refused with exit 2, naming every field and the 73-bit total', async () => {
    const { code, stdout, stderr } = await runCli([
      'layout',
      '--timestamp-bits',
      '37',
      '--node',
      'serverId=20',
      '--sequence-bits',
      '16',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'error: layout needs more than 64 bits: timestamp 37 + serverId 20 + sequence 16 = 73\n',
    );
  });

  test('GIVEN a Sonyflake layout THEN the diagram puts the sequence above the machine id and counts 25.6 ids per ms', async () => {
    const { code, stdout } = await runCli(['layout', 'sonyflake']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/│ timestamp 39\s+│ sequence 8 │ machineId 16 │/);
    expect(stdout).toMatch(/ 24 23 +16 15 +0\n/);
    expect(stdout).toMatch(/ids per ms\s+25\.6 per node \(25,600 per second\)/);
  });

  test('GIVEN discord (64 bits) THEN it warns about signed BIGINT and dates the overflow', async () => {
    const { stdout } = await runCli(['layout', 'discord']);
    expect(stdout).toContain('64 bits: ids pass 2^63-1');
    expect(stdout).toMatch(/passes 2\^63-1\s+2084-09-06T15:47:35\.552Z/);
  });

  test.each(Object.entries(layouts))(
    'GIVEN preset %s THEN the 2^53 and 2^63 dates are where decoded ids cross those values',
    (_, layout) => {
      const facts = layoutFacts(layout);
      const at53 = decode(2n ** 53n, { layout });
      expect(facts.passes2pow53At).toBe(at53.timestamp);
      expect(decode(2n ** 53n - 1n, { layout }).timestamp).toBeLessThan(at53.timestamp);
      if (layout.totalBits === 64) expect(facts.passes2pow63At).toBe(decode(2n ** 63n, { layout }).timestamp);
      else expect(facts.passes2pow63At).toBeNull();
      const last = (1n << BigInt(layout.totalBits)) - 1n;
      expect(facts.endsAt).toBe(decode(last, { layout }).timestamp + layout.timeUnitMs - 1);
    },
  );

  test.each([
    [
      'a custom layout',
      ['layout', '--timestamp-bits', '41', '--node', 'shard=10', '--sequence-bits', '12'],
      /│ shard 10 │/,
    ],
    [
      'a preset with a changed epoch',
      ['layout', 'snowkey', '--epoch', '2030-01-01T00:00:00Z'],
      /runs out\s+2099-09-07/,
    ],
    [
      'a preset name in another case',
      ['layout', 'game-server'],
      /layout gameServer:.*\n[\s\S]*serverId 0\.\.4095/,
    ],
    [
      'a preset with fewer sequence bits',
      ['layout', 'snowkey', '--sequence-bits', '10'],
      /layout snowkey \(modified\): 61 bits/,
    ],
  ])('GIVEN %s THEN it is described', async (_, argv, expected) => {
    const { code, stdout } = await runCli(argv);
    expect(code).toBe(0);
    expect(stdout).toMatch(expected);
  });

  test('GIVEN --json THEN the facts come as JSON', async () => {
    const { code, stdout } = await runCli(['layout', 'gameServer', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      name: 'gameServer',
      idsPerMsPerNode: 1024,
      nodeCount: 4096,
      endsAt: Date.UTC(2025, 0, 1) + 2 ** 41 - 1,
    });
    expect(iso(JSON.parse(stdout).endsAt)).toBe('2094-09-07T15:47:35.551Z');
  });

  test.each([
    ['an unknown preset', ['layout', 'nope'], /"--layout" must be one of/],
    [
      'a custom layout without timestamp bits',
      ['layout', '--node', 'x=3', '--sequence-bits', '12'],
      /"--timestamp-bits" must be given/,
    ],
    [
      'a malformed --node',
      ['layout', '--timestamp-bits', '41', '--node', 'workerId:10', '--sequence-bits', '12'],
      /"--node" must be name=bits/,
    ],
    [
      'a zero-width field',
      ['layout', '--timestamp-bits', '41', '--node', 'w=0', '--sequence-bits', '12'],
      /layout field "w" must be a positive integer width: timestamp 41 \+ w 0 \+ sequence 12 = 53/,
    ],
    [
      '64 bits without --unsigned',
      ['layout', '--timestamp-bits', '42', '--node', 'w=10', '--sequence-bits', '12'],
      /will not fit a signed BIGINT/,
    ],
    ['a bad order', ['layout', 'snowkey', '--order', 'random'], /"order" must be/],
  ])('GIVEN %s THEN it exits 2', async (_, argv, message) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
