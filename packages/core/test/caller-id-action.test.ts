import { describe, expect, test } from 'vitest';
import { generateOrKeep } from '../src/adapter.js';
import { InvalidArgumentError } from '../src/index.js';

describe('generateOrKeep', () => {
  test.each([
    [undefined, false, 'generate'],
    [null, false, 'generate'],
    [null, true, 'keep'],
    [1n, false, 'keep'],
    [2n ** 63n - 1n, false, 'keep'],
  ] as const)('GIVEN %s (nullable %s) THEN it says %s', (value, nullable, action) => {
    expect(generateOrKeep(value, 'Player.id', nullable)).toBe(action);
  });

  test.each([[0n], [-5n], [2n ** 63n], [42], ['123']])(
    'GIVEN %s THEN InvalidArgumentError names the argument',
    (value) => {
      expect(() => generateOrKeep(value, 'Player.id')).toThrow(InvalidArgumentError);
      expect(() => generateOrKeep(value, 'Player.id')).toThrow(
        /^"Player\.id" must be a bigint in 1\.\.2\^63-1/,
      );
    },
  );

  test('GIVEN the argument as a function THEN it is called only to name a refused value', () => {
    let calls = 0;
    const argument = () => {
      calls++;
      return 'rows[3].id';
    };
    expect(generateOrKeep(undefined, argument)).toBe('generate');
    expect(generateOrKeep(7n, argument)).toBe('keep');
    expect(calls).toBe(0);
    let error: unknown;
    try {
      generateOrKeep(7, argument);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe('rows[3].id');
    expect(calls).toBe(1);
  });
});
