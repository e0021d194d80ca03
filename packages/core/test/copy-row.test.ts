import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { copyRow } from '../src/copy-row.js';

describe('copyRow', () => {
  test('GIVEN a row THEN the copy is a plain object with the same own properties in the same order', () => {
    const row = { owner_id: 4n, name: 'Aria', score: 7, created_at: 5n };
    const copy = copyRow(row);
    expect(copy).not.toBe(row);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.constructor).toBe(Object);
    expect(Object.keys(copy)).toEqual(['owner_id', 'name', 'score', 'created_at']);
    expect(isDeepStrictEqual(copy, { ...row })).toBe(true);
    expect(JSON.stringify({ ...copy, owner_id: 1, created_at: 2 })).toBe(
      '{"owner_id":1,"name":"Aria","score":7,"created_at":2}',
    );
  });

  test('GIVEN ids added to the copy THEN the row passed is unchanged', () => {
    const row: Record<string, unknown> = { name: 'Aria' };
    const copy = copyRow(row);
    copy.id = 9n;
    copy.name = 'Bo';
    expect(row).toEqual({ name: 'Aria' });
    expect(copy).toEqual({ name: 'Bo', id: 9n });
  });

  test('GIVEN a row of 40 columns, and one with inherited and symbol keys THEN only own enumerable properties are copied, as Object.assign does', () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, i]));
    expect(copyRow(wide)).toEqual(wide);
    const tag = Symbol('tag');
    const row = Object.assign(Object.create({ inherited: 1 }), { own: 2, [tag]: 3 });
    Object.defineProperty(row, 'hidden', { value: 4, enumerable: false });
    const copy = copyRow(row);
    expect(Object.keys(copy)).toEqual(['own']);
    expect(copy[tag]).toBe(3);
    expect('inherited' in copy).toBe(false);
  });

  test('GIVEN a row with an own "__proto__" key (from JSON.parse) THEN the copy has it as a property and keeps Object.prototype', () => {
    const row = JSON.parse('{"name": "a", "__proto__": {"id": 5}}') as Record<string, unknown>;
    const copy = copyRow(row);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['name', '__proto__']);
    expect(Object.hasOwn(copy, 'id')).toBe(false);
    expect(copy.id).toBeUndefined();
  });
});
