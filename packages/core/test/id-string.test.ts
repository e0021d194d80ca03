import { describe, expect, test } from 'vitest';
import { InvalidIdError, idReplacer, idReviver, parseId, toIdString } from '../src/index.js';

const MAX_SIGNED = 2n ** 63n - 1n;

describe('id edges', () => {
  test.each([
    ['0', 0n],
    ['9007199254740993', 2n ** 53n + 1n],
    ['9223372036854775807', MAX_SIGNED],
    ['18446744073709551615', 2n ** 64n - 1n],
  ])('GIVEN the string %s THEN parseId is exact', (s, v) => {
    expect(parseId(s)).toBe(v);
    expect(toIdString(v)).toBe(s);
  });

  test('GIVEN an unsafe Number THEN parseId refuses rather than round', () => {
    // 2^53 + 2: a Number that is not safe (2^53 + 1 cannot even be written as one)
    expect(() => parseId(2 ** 53 + 2)).toThrow(/lost precision/);
  });

  test('GIVEN a custom argument name THEN errors carry it', () => {
    expect(() => parseId('x', 'playerId')).toThrow(/"playerId" must be/);
  });

  test('GIVEN a non-bigint THEN toIdString refuses', () => {
    expect(() => toIdString('12' as never)).toThrow(InvalidIdError);
  });

  test('GIVEN ids at 2^53+1 and 2^63-1 THEN a JSON round trip through replacer and reviver is exact', () => {
    const payload = { id: MAX_SIGNED, ownerId: 2n ** 53n + 1n, name: 'Aria', count: 3, guildId: null };
    const json = JSON.stringify(payload, idReplacer);
    expect(json).toBe(
      '{"id":"9223372036854775807","ownerId":"9007199254740993","name":"Aria","count":3,"guildId":null}',
    );
    expect(JSON.parse(json, idReviver(['id', 'ownerId', 'guildId']))).toEqual(payload);
    expect(
      JSON.parse(
        json,
        idReviver((k) => k.endsWith('Id') || k === 'id'),
      ),
    ).toEqual(payload);
  });

  test('GIVEN a reviver key whose value is not an id THEN it throws naming the key', () => {
    expect(() => JSON.parse('{"id":"12x"}', idReviver(['id']))).toThrow(/"id" must be/);
  });
});
