import { describe, expect, test } from 'vitest';
import { runBenchScript } from './run-bench-script.js';

// The bench's small scripts take their arguments by position; a count that is not a positive
// integer, or a dialect, variant, adapter or path that does not exist, stops the script before it
// opens a database, with the argument's name, what was received and what was expected, instead of
// running zero rounds, writing NaN rows or failing further in.
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
    script: 'bench/insert/knex-key-routes.ts',
    args: ['-1'],
    message: 'rounds must be a positive integer (received -1)',
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
  {
    script: 'bench/insert/prisma-extension-cost.ts',
    args: ['oracle'],
    message: 'dialect must be one of postgres, mysql, sqlite (received oracle)',
  },
  {
    script: 'bench/insert/profile-adapter.ts',
    args: ['knex', 'snowkey', 'sqllite'],
    message: 'dialect must be one of postgres, mysql, sqlite (received sqllite)',
  },
  {
    script: 'bench/insert/profile-adapter.ts',
    args: ['knex', 'uuid'],
    message: 'variant must be one of autoincrement, hand-set, snowkey (received uuid)',
  },
  {
    script: 'bench/insert/profile-adapter.ts',
    args: ['mongoose'],
    message: 'adapter must be one of typeorm, prisma, ',
  },
  {
    script: 'bench/insert/profile-adapter.ts',
    args: ['knex', 'snowkey', 'sqlite', '100', '9'],
    message: 'path index must be one of 0, 1, 2, 3 (received 9)',
  },
];

describe('GIVEN a bench script and an argument it cannot use', () => {
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
