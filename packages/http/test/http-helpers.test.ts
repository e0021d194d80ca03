import { InvalidArgumentError, InvalidIdError, parseId, publicIdCodec } from '@snowkey/core';
import { idErrorBody, idErrorResponse, jsonResponse, strictBigints } from '@snowkey/http';
import superjson from 'superjson';
import { describe, expect, test } from 'vitest';
import { caught } from '../../core/test/caught.js';

describe('jsonResponse and idErrorResponse', () => {
  test('GIVEN data holding bigints THEN the body has them as exact decimal strings, as JSON', async () => {
    const res = jsonResponse({ id: 9223372036854775807n, ids: [9007199254740993n], n: 1 }, { status: 201 });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{"id":"9223372036854775807","ids":["9007199254740993"],"n":1}');
  });

  test('GIVEN a content type of the caller THEN it is kept', () => {
    const res = jsonResponse({}, { headers: { 'content-type': 'application/problem+json' } });
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  test.each([
    ['a bad id string', () => parseId('007', 'params.id'), 'InvalidIdError', 'params.id'],
    [
      'a bad public id',
      () => publicIdCodec({ key: 'a'.repeat(32), entity: 'order' }).decode('x', 'pid'),
      'InvalidPublicIdError',
      'pid',
    ],
  ])(
    'GIVEN %s THEN a 400 whose body names the error, the argument and the message',
    async (_what, fn, error, argument) => {
      const err = caught(fn);
      const res = idErrorResponse(err)!;
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error, argument, message: (err as Error).message });
    },
  );

  test('GIVEN an error that is not a bad id from the client THEN no 400: it stays the server error it is', () => {
    expect(idErrorResponse(new Error('db down'))).toBeUndefined();
    expect(idErrorBody(new InvalidArgumentError('Player.id', 'a bigint', '1'))).toBeUndefined();
    expect(idErrorBody('InvalidIdError')).toBeUndefined();
  });

  test('GIVEN an InvalidIdError stripped of its own fields (as body-parser does) THEN it is still recognised', () => {
    const err = new InvalidIdError('id', 'x', 'y');
    for (const key of Object.getOwnPropertyNames(err))
      if (key !== 'message' && key !== 'stack') delete (err as never)[key];
    expect(idErrorBody(err)).toEqual({ error: 'InvalidIdError', message: err.message });
  });
});

describe('strictBigints', () => {
  const strict = strictBigints(superjson);

  test('GIVEN bigints in objects, arrays, maps and sets THEN they round-trip as bigints', () => {
    const value = {
      id: 9223372036854775807n,
      list: [1n, { x: 2n }],
      map: new Map([[3n, 4n]]),
      set: new Set([5n]),
      n: 6,
    };
    expect(strict.deserialize(JSON.parse(JSON.stringify(strict.serialize(value))))).toEqual(value);
  });

  test.each([
    ['hex', ' 0x10'],
    ['a leading space', ' 16'],
    ['a leading zero', '016'],
    ['binary', '0b10000'],
  ])(
    'GIVEN a bigint written in %s THEN superjson alone takes it, strictBigints refuses it naming the path',
    (_what, text) => {
      const payload = { json: { a: [{ id: text }] }, meta: { values: { 'a.0.id': ['bigint'] }, v: 1 } };
      expect(superjson.deserialize<{ a: [{ id: bigint }] }>(payload as never).a[0].id).toBe(16n);
      const err = caught(() => strict.deserialize(payload));
      expect(err).toBeInstanceOf(InvalidIdError);
      expect(err).toMatchObject({ argument: 'a[0].id', received: text });
    },
  );

  test('GIVEN a non-canonical bigint as a map key or the whole input THEN it is refused too', () => {
    expect(() =>
      strict.deserialize({ json: [[' 1', 'v']], meta: { values: ['map', { '0.0': ['bigint'] }], v: 1 } }),
    ).toThrow(/"\[0\]\.key" must be/);
    expect(() => strict.deserialize({ json: '01', meta: { values: ['bigint'], v: 1 } })).toThrow(
      /"input" must be/,
    );
  });
});
