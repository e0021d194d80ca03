import { describe, expect, test } from 'vitest';
import { callerIdAction } from '../src/adapter.js';
import { InvalidArgumentError } from '../src/index.js';

describe('callerIdAction', () => {
  test.each([
    [undefined, false, 'generate'],
    [null, false, 'generate'],
    [null, true, 'keep'],
    [1n, false, 'keep'],
    [2n ** 63n - 1n, false, 'keep'],
  ] as const)('GIVEN %s (nullable %s) THEN it says %s', (value, nullable, action) => {
    expect(callerIdAction(value, 'Player.id', nullable)).toBe(action);
  });

  test.each([[0n], [-5n], [2n ** 63n], [42], ['123']])(
    'GIVEN %s THEN InvalidArgumentError names the argument',
    (value) => {
      expect(() => callerIdAction(value, 'Player.id')).toThrow(InvalidArgumentError);
      expect(() => callerIdAction(value, 'Player.id')).toThrow(
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
    expect(callerIdAction(undefined, argument)).toBe('generate');
    expect(callerIdAction(7n, argument)).toBe('keep');
    expect(calls).toBe(0);
    let error: unknown;
    try {
      callerIdAction(7, argument);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe('rows[3].id');
    expect(calls).toBe(1);
  });
});
