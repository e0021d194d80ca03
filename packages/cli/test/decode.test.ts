import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

describe('snowkey decode', () => {
  test("GIVEN Discord's documented id 175928847299117063 WHEN decoded with --layout discord THEN it prints 2016-04-30T11:18:25.796Z, worker 1, process 0, increment 7", async () => {
    const { code, stdout, stderr } = await runCli(['decode', '175928847299117063', '--layout', 'discord']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'id         175928847299117063',
        'date       2016-04-30T11:18:25.796Z',
        'timestamp  1462015105796',
        'workerId   1',
        'processId  0',
        'sequence   7',
        '',
      ].join('\n'),
    );
  });

  test('GIVEN --json THEN it prints an array with ids as decimal strings (exact above 2^53)', async () => {
    const { code, stdout } = await runCli([
      'decode',
      '175928847299117063',
      '9007199254740993',
      '--layout',
      'discord',
      '--json',
    ]);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed).toEqual([
      {
        id: '175928847299117063',
        date: '2016-04-30T11:18:25.796Z',
        timestamp: 1462015105796,
        workerId: 1,
        processId: 0,
        sequence: 7,
      },
      {
        id: '9007199254740993',
        date: new Date(1420070400000 + 2 ** 31).toISOString(),
        timestamp: 1420070400000 + 2 ** 31,
        workerId: 0,
        processId: 0,
        sequence: 1,
      },
    ]);
  });

  test('GIVEN a Sonyflake id THEN the sequence (above the machine id) and the machine id come out right', async () => {
    // time unit 5 (x 10 ms), sequence 3, machine 0x0102: (5 << 24) | (3 << 16) | 258
    const id = (5n << 24n) | (3n << 16n) | 258n;
    const { code, stdout } = await runCli(['decode', String(id), '--layout', 'sonyflake', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)[0]).toMatchObject({
      timestamp: 1409529600000 + 50,
      sequence: 3,
      machineId: 258,
    });
  });

  test('GIVEN --epoch THEN it overrides the preset epoch', async () => {
    const id = String((1000n << 22n) | (1n << 12n) | 2n);
    const { code, stdout } = await runCli(['decode', id, '--epoch', '2030-01-01T00:00:00Z', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)[0]).toMatchObject({
      date: '2030-01-01T00:00:01.000Z',
      workerId: 1,
      sequence: 2,
    });
  });

  test.each<[string, string[], RegExp]>([
    ['non-digits', ['decode', '12a'], /"id" must be a decimal string.*received "12a"/],
    ['a sign', ['decode', '--', '-5'], /received "-5"/],
    ['2^64', ['decode', '18446744073709551616'], /received "18446744073709551616"/],
    [
      'an id wider than the layout',
      ['decode', String(2n ** 63n)],
      /in 0\.\.2\^63-1 \(an id of layout "snowkey"\)/,
    ],
    [
      'an unknown layout',
      ['decode', '1', '--layout', 'nope'],
      /"--layout" must be one of .*discord.*received "nope"/,
    ],
    ['an unknown flag', ['decode', '1', '--frobnicate'], /unknown option '--frobnicate'/],
    ['no id at all', ['decode'], /missing required argument 'id'/],
    ['a bad epoch', ['decode', '1', '--epoch', 'soon'], /"--epoch" must be ms since 1970 or an ISO date/],
    ...['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'].map(
      (name) =>
        [
          `a custom node field named ${name}`,
          [
            'decode',
            '1',
            '--timestamp-bits',
            '41',
            '--node',
            `${name}=10`,
            '--sequence-bits',
            '12',
            '--json',
          ],
          new RegExp(
            `node field name "${name}" is reserved: it is a property every JavaScript object inherits`,
          ),
        ] as [string, string[], RegExp],
    ),
    [
      'a custom node field named like a generator option',
      ['generate', '--timestamp-bits', '41', '--node', 'clock=10', '--sequence-bits', '12', '--node-id', '1'],
      /node field name "clock" is reserved: it is an option of new Snowflake\(\)/,
    ],
  ])('GIVEN %s THEN it exits 2 naming the problem and prints nothing on stdout', async (_, argv, message) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  test('GIVEN a good id and a bad one THEN nothing is printed for the good one', async () => {
    const { code, stdout, stderr } = await runCli([
      'decode',
      '175928847299117063',
      'x',
      '--layout',
      'discord',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/received "x"/);
  });
});
