import { describe, expect, test } from 'vitest';
import { takeId, takeIds } from '../src/adapter.js';
import { type IdGenerator, InvalidArgumentError, manualClock, Snowflake } from '../src/index.js';

describe('takeIds', () => {
  test('GIVEN a Snowflake THEN n strictly increasing bigint ids through its batch path', () => {
    const gen = new Snowflake({ workerId: 3, clock: manualClock(Date.UTC(2026, 0, 1), 0.01).now });
    const ids = takeIds(gen, 5);
    expect(ids).toHaveLength(5);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(takeIds(gen, 0)).toEqual([]);
  });

  test('GIVEN a generator without nextIds THEN nextId is called n times', () => {
    let next = 10n;
    const gen: IdGenerator = { nextId: () => next++ };
    expect(takeIds(gen, 3)).toEqual([10n, 11n, 12n]);
  });

  test.each([
    ['too few ids', () => [1n], 'generator.nextIds(2)'],
    ['too many ids', () => [1n, 2n, 3n], 'generator.nextIds(2)'],
    ['not an array', () => 'ids', 'generator.nextIds(2)'],
    ['a Number among them', () => [1n, 2], 'generator.nextIds(2)'],
    ['a negative id among them', () => [1n, -2n], 'generator.nextIds(2)'],
    ['0n among them', () => [0n, 2n], 'generator.nextIds(2)'],
  ])('GIVEN a batch with %s THEN an InvalidArgumentError names the call', (_what, batch, argument) => {
    const gen = { nextId: () => 1n, nextIds: batch } as unknown as IdGenerator;
    expect(() => takeIds(gen, 2)).toThrow(InvalidArgumentError);
    expect(() => takeIds(gen, 2)).toThrow(`"${argument}" must be`);
  });

  test.each([
    ['a string', '42', '"42"'],
    ['a Number', 42, '42'],
    ['0n', 0n, '0n'],
    ['a negative bigint', -5n, '-5n'],
    ['2^63', 2n ** 63n, '9223372036854775808n'],
  ])('GIVEN nextId returning %s THEN refused, not passed on', (_what, value, shown) => {
    const gen = { nextId: () => value } as unknown as IdGenerator;
    const message = `"generator.nextId()" must be a bigint in 1..2^63-1 (received ${shown})`;
    expect(() => takeIds(gen, 1)).toThrow(message);
    expect(() => takeId(gen)).toThrow(message);
  });

  test('GIVEN 2^63-1 from nextId THEN it is a key and passed on exactly', () => {
    const gen: IdGenerator = { nextId: () => 2n ** 63n - 1n };
    expect(takeId(gen)).toBe(9223372036854775807n);
  });

  describe('GIVEN a Snowflake whose methods are replaced', () => {
    // Core's Snowflake batch is checked at its two ends; anything that swaps one of its methods
    // out has every id checked, so a bad id in the middle of a batch is still refused.
    const clock = manualClock(Date.UTC(2026, 0, 1), 0).now;
    const middleZero = (): (() => bigint) => {
      const values = [5n, 0n, 7n];
      return () => values.shift() ?? 9n;
    };

    test('WHEN a subclass replaces nextId THEN a bad id among the batch is refused', () => {
      class Replaced extends Snowflake {
        readonly #next = middleZero();
        override nextId(): bigint {
          return this.#next();
        }
      }
      const gen = new Replaced({ workerId: 1, clock });
      expect(() => takeIds(gen, 3)).toThrow(
        '"generator.nextIds(3)" must be a bigint in 1..2^63-1 (received 0n)',
      );
    });

    test('WHEN a subclass replaces nextIds THEN a bad id among the batch is refused', () => {
      class Replaced extends Snowflake {
        override nextIds(): bigint[] {
          return [5n, -1n, 7n];
        }
      }
      const gen = new Replaced({ workerId: 1, clock });
      expect(() => takeIds(gen, 3)).toThrow(
        '"generator.nextIds(3)" must be a bigint in 1..2^63-1 (received -1n)',
      );
    });

    test('WHEN one instance gets its own nextId THEN a bad id among the batch is refused', () => {
      const gen = new Snowflake({ workerId: 1, clock });
      Object.assign(gen, { nextId: middleZero() });
      expect(() => takeIds(gen, 3)).toThrow(
        '"generator.nextIds(3)" must be a bigint in 1..2^63-1 (received 0n)',
      );
    });
  });
});
