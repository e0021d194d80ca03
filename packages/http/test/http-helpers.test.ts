import { InvalidArgumentError, InvalidIdError, parseId, publicIdCodec } from '@snowkey/core';
import {
  idErrorBody,
  idErrorResponse,
  jsonResponse,
  parseJsonId,
  parseJsonIds,
  strictBigints,
} from '@snowkey/http';
import { bodyIds } from '@snowkey/http/express';
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

describe('parseJsonId and parseJsonIds', () => {
  test.each([
    ['42', 42, true],
    ['42.0', JSON.parse('42.0'), true],
    ['4.2e1', JSON.parse('4.2e1'), true],
    ['2^53+1, already rounded by JSON.parse', JSON.parse('9007199254740993'), false],
  ])(
    'GIVEN the JSON number %s THEN it is refused, naming the argument and what was expected',
    (_what, value, safe) => {
      const err = caught(() => parseJsonId(value, 'body.id'));
      expect(err).toBeInstanceOf(InvalidIdError);
      expect(err).toMatchObject({ argument: 'body.id', received: value });
      expect((err as Error).message).toMatch(
        /^"body\.id" must be an id as a JSON string: .* \(received \d+\)$/,
      );
      // core's parseId, for driver values, takes a safe integer Number: the HTTP edge does not
      expect(safe ? parseId(value, 'body.id') : caught(() => parseId(value))).toEqual(
        safe ? BigInt(value) : expect.any(InvalidIdError),
      );
    },
  );

  test('GIVEN an id string or a bigint THEN parseJsonId is parseId', () => {
    expect(parseJsonId('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseJsonId(7n)).toBe(7n);
    expect(caught(() => parseJsonId('007', 'body.id'))).toMatchObject({
      argument: 'body.id',
      received: '007',
    });
    expect(caught(() => parseJsonId(null))).toMatchObject({ argument: 'id', received: null });
  });

  test('GIVEN a body with ids at every depth THEN a copy has them as bigints, and the body is unchanged', () => {
    const body = JSON.parse(
      '{"id":"7","name":"Aria","n":42,"ownerId":null,"items":[{"ownerId":"9007199254740993","qty":3}],"memberIds":["1","2"],"meta":{"id":"5"}}',
    );
    const before = structuredClone(body);
    expect(parseJsonIds(body, ['id', 'ownerId', 'memberIds'])).toEqual({
      id: 7n,
      name: 'Aria',
      n: 42,
      ownerId: null,
      items: [{ ownerId: 9007199254740993n, qty: 3 }],
      memberIds: [1n, 2n],
      meta: { id: 5n },
    });
    expect(body).toEqual(before);
    expect(parseJsonIds(body, (k) => k === 'id')).toMatchObject({ id: 7n, meta: { id: 5n } });
  });

  test.each([
    ['{"id":42}', 'body.id'],
    ['{"items":[{"ownerId":"1"},{"ownerId":4.2e1}]}', 'body.items[1].ownerId'],
    ['{"memberIds":["1",2]}', 'body.memberIds[1]'],
    ['{"a b":{"id":"x"}}', 'body["a b"].id'],
    ['[{"id":"0"}]', 'body[0].id'],
  ])('GIVEN %s THEN InvalidIdError names the path %s', (json, argument) => {
    const err = caught(() => parseJsonIds(JSON.parse(json), ['id', 'ownerId', 'memberIds']));
    expect(err).toBeInstanceOf(InvalidIdError);
    expect(err).toMatchObject({ argument });
    expect((err as Error).message.startsWith(`"${argument}" must be`)).toBe(true);
  });

  test('GIVEN a "__proto__" key in JSON THEN the copy keeps it as a plain own property', () => {
    const copy = parseJsonIds(JSON.parse('{"__proto__":{"id":"1"},"id":"2"}'), ['id']) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ id: 1n });
    expect(copy.id).toBe(2n);
  });

  test('GIVEN the Express middleware THEN it replaces req.body, or hands the error on with its fields', () => {
    const ok = { body: JSON.parse('{"id":"9","name":"x"}') as unknown };
    const passed: unknown[] = [];
    bodyIds(['id'])(ok, undefined, (err) => passed.push(err));
    expect(ok.body).toEqual({ id: 9n, name: 'x' });
    const bad = { body: JSON.parse('{"id":9}') as unknown };
    bodyIds(['id'])(bad, undefined, (err) => passed.push(err));
    expect(passed[0]).toBeUndefined();
    expect(passed[1]).toBeInstanceOf(InvalidIdError);
    expect(idErrorBody(passed[1])).toMatchObject({ error: 'InvalidIdError', argument: 'body.id' });
    expect(bad.body).toEqual({ id: 9 });
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
