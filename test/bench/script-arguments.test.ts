import { describe, expect, test } from 'vitest';
import { runBenchScript } from './run-bench-script.js';

// The bench's small scripts take their counts as positional arguments; a count that is not a
// positive integer stops the script before it opens a database, with the argument's name and what
// was received, instead of running zero rounds or writing NaN rows.
const cases = [
  {
    script: 'bench/insert/batch-id-wait.ts',
    args: ['abc'],
    message: 'rounds must be a positive integer (received abc)',
  },
  {
    script: 'bench/insert/knex-key-cost.ts',
    args: ['0'],
    message: 'rounds must be a positive integer (received 0)',
  },
  {
    script: 'bench/insert/knex-position-bindings.ts',
    args: ['2.5'],
    message: 'rounds must be a positive integer (received 2.5)',
  },
  {
    script: 'bench/insert/prisma-extension-cost.ts',
    args: ['sqlite', 'x'],
    message: 'rounds must be a positive integer (received x)',
  },
  {
    script: 'bench/insert/profile-adapter.ts',
    args: ['knex', 'snowkey', 'sqlite', '-5'],
    message: 'rows must be a positive integer (received -5)',
  },
];

describe('GIVEN a bench script and a count that is not a positive integer', () => {
  test.each(cases)(
    'WHEN $script runs with $args THEN it exits non-zero naming the argument',
    async ({ script, args, message }) => {
      const failure = await runBenchScript(script, args).then(
        () => undefined,
        (err: unknown) => err as { code?: number; stderr?: string },
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(`InvalidArgumentError: ${message}`);
    },
    60_000,
  );
});
