import fc from 'fast-check';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { MAX_KEY } from '../src/adapter.js';
import {
  type IdString,
  InvalidIdError,
  idReplacer,
  idReviver,
  isIdString,
  parseId,
  toIdString,
} from '../src/index.js';
import { caught } from './caught.js';

const ODD_ABOVE_2_53 = 2n ** 53n + 1n; // 9007199254740993: no Number can hold it

describe('parseId and toIdString: the wire rule', () => {
  test.each([
    ['1', 1n],
    ['9007199254740993', ODD_ABOVE_2_53],
    ['9223372036854775807', MAX_KEY],
  ])('GIVEN the canonical string %s THEN parseId is exact and toIdString writes it back', (s, v) => {
    expect(parseId(s)).toBe(v);
    expect(toIdString(v)).toBe(s);
    expect(isIdString(s)).toBe(true);
  });

  test.each([
    ['zero', '0'],
    ['2^63 (one above MAX_KEY)', '9223372036854775808'],
    ['2^64-1', '18446744073709551615'],
    ['a sign', '-1'],
    ['a plus sign', '+1'],
    ['a leading zero', '0123'],
    ['a leading space', ' 123'],
    ['a trailing newline', '123\n'],
    ['a fraction', '123.0'],
    ['an exponent', '1e3'],
    ['hex', '0x1f'],
    ['an empty string', ''],
    ['full-width digits', '１２３'],
    ['a thousand digits', '9'.repeat(1000)],
  ])('GIVEN %s THEN parseId refuses it and isIdString is false', (_what, s) => {
    const err = caught(() => parseId(s, 'params.id'));
    expect(err).toBeInstanceOf(InvalidIdError);
    expect(err).toMatchObject({ argument: 'params.id', received: s });
    expect((err as Error).message).toMatch(
      /^"params\.id" must be a bigint in 1\.\.2\^63-1: a decimal string/,
    );
    expect(isIdString(s)).toBe(false);
  });

  test.each([
    ['0n', 0n],
    ['a negative bigint', -5n],
    ['2^63', MAX_KEY + 1n],
    ['0', 0],
    ['a fraction', 1.5],
    ['NaN', Number.NaN],
    ['null', null],
    ['undefined', undefined],
    ['an object', { id: '1' }],
  ])('GIVEN %s THEN parseId refuses it', (_what, value) => {
    expect(() => parseId(value)).toThrow(InvalidIdError);
  });

  test('GIVEN bigints and safe Numbers in range THEN parseId takes them as they are', () => {
    expect(parseId(MAX_KEY)).toBe(MAX_KEY);
    expect(parseId(Number.MAX_SAFE_INTEGER)).toBe(2n ** 53n - 1n);
  });

  test('GIVEN a Number above 2^53-1 THEN parseId refuses rather than round, and says why', () => {
    // JSON.parse('9007199254740993') is already 9007199254740992: the neighbour's id.
    expect(() => parseId(JSON.parse('9007199254740993'))).toThrow(/may already have lost precision/);
  });

  test('GIVEN a value that is not a key THEN toIdString refuses it', () => {
    expect(() => toIdString('12' as never)).toThrow(InvalidIdError);
    expect(() => toIdString(0n)).toThrow(InvalidIdError);
    expect(() => toIdString(MAX_KEY + 1n)).toThrow(InvalidIdError);
  });

  test('GIVEN any key THEN toIdString and parseId round-trip it, and the string is canonical', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_KEY }), (id) => {
        const s = toIdString(id);
        expect(parseId(s)).toBe(id);
        expect(s).toMatch(/^[1-9][0-9]*$/);
      }),
      { numRuns: 2000 },
    );
  });

  test('GIVEN the IdString brand THEN a raw string does not type as an id, a checked one does', () => {
    expectTypeOf(toIdString(1n)).toEqualTypeOf<IdString>();
    expectTypeOf<string>().not.toMatchTypeOf<IdString>();
    expectTypeOf<IdString>().toMatchTypeOf<string>();
    const raw: unknown = '42';
    if (isIdString(raw)) expectTypeOf(raw).toEqualTypeOf<IdString>();
  });
});

describe('JSON replacer and reviver', () => {
  test('GIVEN ids at 2^53+1 and 2^63-1 THEN a JSON round trip through replacer and reviver is exact', () => {
    const payload = { id: MAX_KEY, ownerId: ODD_ABOVE_2_53, name: 'Aria', count: 3, guildId: null };
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

  test('GIVEN an array of ids under a named key THEN each comes back as a bigint', () => {
    const json = JSON.stringify({ memberIds: [MAX_KEY, ODD_ABOVE_2_53] }, idReplacer);
    expect(JSON.parse(json, idReviver(['memberIds']))).toEqual({ memberIds: [MAX_KEY, ODD_ABOVE_2_53] });
    expect(() => JSON.parse('{"memberIds":["1","01"]}', idReviver(['memberIds']))).toThrow(
      /"memberIds\[1\]" must be/,
    );
  });

  test.each([
    ['a non-digit string', '{"id":"12x"}'],
    ['a JSON number above 2^53', '{"id":9007199254740993}'],
    ['zero', '{"id":"0"}'],
    ['an object', '{"id":{"n":1}}'],
  ])('GIVEN %s under a reviver key THEN it throws naming the key', (_what, json) => {
    expect(() => JSON.parse(json, idReviver(['id']))).toThrow(/"id" must be/);
  });

  test('GIVEN a top-level value THEN the reviver leaves it alone (its key is "")', () => {
    expect(
      JSON.parse(
        '"x"',
        idReviver(() => true),
      ),
    ).toBe('x');
  });
});
