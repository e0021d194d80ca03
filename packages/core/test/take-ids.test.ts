import { describe, expect, test } from 'vitest';
import { type IdGenerator, InvalidArgumentError, manualClock, Snowflake, takeIds } from '../src/index.js';

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
    ['a Number among them', () => [1n, 2], 'generator.nextId()'],
  ])('GIVEN a batch with %s THEN an InvalidArgumentError names the call', (_what, batch, argument) => {
    const gen = { nextId: () => 1n, nextIds: batch } as unknown as IdGenerator;
    expect(() => takeIds(gen, 2)).toThrow(InvalidArgumentError);
    expect(() => takeIds(gen, 2)).toThrow(`"${argument}" must be`);
  });

  test('GIVEN nextId returning a string THEN refused, not passed on', () => {
    const gen = { nextId: () => '42' } as unknown as IdGenerator;
    expect(() => takeIds(gen, 1)).toThrow('"generator.nextId()" must be a bigint (received "42")');
  });
});
