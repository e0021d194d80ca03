import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { RowCopier } from '../src/adapter.js';

/** What a copy must equal: a spread copy, string keys only, with the room columns added where absent. */
function expected(row: object, room: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(row))
    Object.defineProperty(copy, key, {
      value: (row as Record<string, unknown>)[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  for (const column of room) if (!Object.hasOwn(copy, column)) copy[column] = undefined;
  return copy;
}

function expectCopy(copier: RowCopier, row: object): Record<string, unknown> {
  const copy = copier.copy(row);
  const want = expected(row, copier.room);
  expect(copy).not.toBe(row);
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Object.keys(copy)).toEqual(Object.keys(want));
  expect(isDeepStrictEqual(copy, want)).toBe(true);
  return copy;
}

describe('RowCopier', () => {
  test('GIVEN rows of one shape THEN each copy has their columns in order, then the room columns as undefined, and the rows stay as they were', () => {
    const copier = new RowCopier(['id', 'serial_no']);
    for (let i = 0; i < 50; i++) {
      const row = { owner_id: BigInt(i), name: `p${i}`, score: i, created_at: 5n };
      const copy = expectCopy(copier, row);
      expect(Object.keys(copy)).toEqual(['owner_id', 'name', 'score', 'created_at', 'id', 'serial_no']);
      copy.id = 9n;
      expect(row).toEqual({ owner_id: BigInt(i), name: `p${i}`, score: i, created_at: 5n });
    }
  });

  test('GIVEN rows of learned shapes THEN missing has a bit for each room column the row lacked, and none for a row of no learned shape', () => {
    const copier = new RowCopier(['id', 'serial_no']);
    const missingAfter = (row: object) => {
      expectCopy(copier, row);
      return copier.missing;
    };
    for (let round = 0; round < 3; round++) {
      expect(missingAfter({ name: 'a' })).toBe(0b11);
      expect(missingAfter({ id: 5n, name: 'b' })).toBe(0b10);
      expect(missingAfter({ name: 'c', serial_no: null })).toBe(0b01);
      expect(missingAfter({ serial_no: 1n, id: undefined })).toBe(0b00);
      // Rows of no learned shape (a fifth shape, a null prototype with other keys): clear bits.
      expect(missingAfter({ other: 1 })).toBe(0);
      expect(missingAfter(Object.assign(Object.create(null), { label: 'd' }))).toBe(0);
      // A class instance or a null prototype with a learned shape's keys: that shape's bits.
      expect(missingAfter(Object.assign(new (class Player {})(), { id: 6n, name: 'e' }))).toBe(0b10);
      expect(missingAfter(Object.assign(Object.create(null), { name: 'f' }))).toBe(0b11);
    }
    const wide = Array.from({ length: 33 }, (_, c) => `c${c}`);
    const many = new RowCopier(wide);
    many.copy({ c0: 1n, name: 'f' });
    expect(many.missing).toBe(0x7ffffffe);
  });

  test('GIVEN copyLacking THEN it copies only rows of the first learned shape with none of the room columns, exactly as copy does, and reads nothing of any other row', () => {
    const copier = new RowCopier(['id', 'serial_no']);
    const row = { name: 'a', score: 1 };
    // Nothing learned yet: no copy.
    expect(copier.copyLacking(row)).toBeUndefined();
    // A shape with a room column is learned, but it is not one that lacks them all.
    expectCopy(copier, { id: 5n, name: 'b' });
    expect(copier.copyLacking({ id: 6n, name: 'c' })).toBeUndefined();
    expect(copier.copyLacking(row)).toBeUndefined();
    // Learned through copy: from then on copyLacking copies rows of that shape.
    expectCopy(copier, row);
    const before = copier.missing;
    for (let i = 0; i < 5; i++) {
      const fresh = { name: `p${i}`, score: i };
      const copy = copier.copyLacking(fresh);
      expect(copy).toBeDefined();
      expect(copy).not.toBe(fresh);
      expect(Object.keys(copy!)).toEqual(['name', 'score', 'id', 'serial_no']);
      expect(isDeepStrictEqual(copy, expected(fresh, copier.room))).toBe(true);
      expect(copier.missing).toBe(before);
    }
    // Another order, a key more or less, a room column present: undefined, and a getter on such a
    // row is not read.
    let reads = 0;
    const getter = {
      name: 'g',
      get score() {
        reads++;
        return 1;
      },
      extra: 1,
    };
    for (const other of [
      { score: 1, name: 'a' },
      { name: 'a' },
      { name: 'a', score: 1, id: undefined },
      getter,
    ])
      expect(copier.copyLacking(other)).toBeUndefined();
    expect(reads).toBe(0);
    // A class instance with that shape's own keys, and a row that inherits one of them: their own
    // properties only, as copy makes them.
    const instance = Object.assign(new (class Player {})(), { name: 'i', score: 2 });
    const inherits = Object.assign(Object.create({ score: 1 }), { name: 'j' });
    for (const other of [instance, inherits]) {
      const copy = copier.copyLacking(other);
      expect(Object.keys(copy!)).toEqual([...Object.keys(other), 'id', 'serial_no']);
      expect(isDeepStrictEqual(copy, expected(other, copier.room))).toBe(true);
    }
  });

  test('GIVEN a row that has its id column already, in any position THEN it is kept where it is', () => {
    const copier = new RowCopier(['id']);
    expect(Object.keys(expectCopy(copier, { id: 7n, name: 'a' }))).toEqual(['id', 'name']);
    expect(Object.keys(expectCopy(copier, { name: 'a', id: null }))).toEqual(['name', 'id']);
    expect(copier.copy({ name: 'a', id: 7n }).id).toBe(7n);
  });

  test('GIVEN rows of ten shapes interleaved, the same columns in other orders among them THEN every copy is exact', () => {
    const copier = new RowCopier(['id']);
    const shapes = [
      (i: number) => ({ a: i, b: `${i}` }),
      (i: number) => ({ b: `${i}`, a: i }),
      (i: number) => ({ a: i }),
      (i: number) => ({ a: i, b: `${i}`, c: [i] }),
      (i: number) => ({ id: BigInt(i + 1), a: i }),
      (i: number) => ({ a: i, id: undefined }),
      (i: number) => ({ c: i, d: i, e: i, f: i, g: i }),
      (i: number) => ({ 0: i, a: i }),
      (i: number) => ({ a: i, b: null, c: undefined }),
      () => ({}),
    ];
    for (let round = 0; round < 30; round++) {
      for (const shape of shapes) expectCopy(copier, shape(round));
    }
  });

  test('GIVEN a row that is not a plain object (class instance, null prototype, inherited enumerable keys) THEN only its own enumerable properties are copied, as Object.assign does', () => {
    const copier = new RowCopier(['id']);
    class Player {
      name = 'Aria';
      get shout() {
        return 'ARIA';
      }
    }
    const bare = Object.assign(Object.create(null), { name: 'Bo' });
    const inherits = Object.assign(Object.create({ inherited: 1 }), { own: 2 });
    Object.defineProperty(inherits, 'hidden', { value: 4, enumerable: false });
    // A plain row with the same keys first, so its shape is known when the others come.
    expectCopy(copier, { own: 2, inherited: 1 });
    expectCopy(copier, { name: 'Bo' });
    for (let round = 0; round < 3; round++) {
      expect(Object.keys(expectCopy(copier, new Player()))).toEqual(['name', 'id']);
      expect(Object.keys(expectCopy(copier, bare))).toEqual(['name', 'id']);
      expect(Object.keys(expectCopy(copier, inherits))).toEqual(['own', 'id']);
    }
  });

  test('GIVEN an enumerable key added to Object.prototype after a shape was learned THEN rows of that shape are still copied with their own keys only', () => {
    const copier = new RowCopier(['id']);
    expectCopy(copier, { a: 1, b: 2 });
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'x';
    try {
      const copy = copier.copy({ a: 1, b: 2 });
      expect(Object.hasOwn(copy, 'polluted')).toBe(false);
      expect(Object.keys(copy)).toEqual(['a', 'b', 'id']);
    } finally {
      delete proto.polluted;
    }
  });

  test('GIVEN column names with quotes, backslashes, line separators, code and numbers THEN they are copied as names, and nothing in them runs', () => {
    const copier = new RowCopier(['id"]; globalThis.__rowCopierRan = 1; ["']);
    const row = {
      'a"b': 1,
      "c'd": 2,
      'e\\f': 3,
      'g\u2028h\u2029i': 4,
      '}; globalThis.__rowCopierRan = 1; ({': 5,
      '`${globalThis.__rowCopierRan = 1}`': 6,
      '12': 7,
      constructor: 8,
      toString: 9,
      '\ud800': 10,
    };
    for (let round = 0; round < 3; round++) expectCopy(copier, row);
    expect((globalThis as Record<string, unknown>).__rowCopierRan).toBeUndefined();
  });

  test('GIVEN a row with an own "__proto__" key (from JSON.parse) THEN the copy has it as a property, as { ...row } does, never as its prototype', () => {
    const copier = new RowCopier(['id']);
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`c${i}`, i]));
    for (const text of [
      '{"__proto__": {"id": 5}, "name": "a"}',
      '{"name": "a", "__proto__": 3}',
      JSON.stringify({ ...wide, ['__proto__']: { id: 5 } }),
    ]) {
      const row = JSON.parse(text) as object;
      for (let round = 0; round < 3; round++) {
        const copy = expectCopy(copier, row);
        expect(Object.hasOwn(copy, '__proto__')).toBe(true);
        expect(copy.id).toBeUndefined();
      }
    }
  });

  test('GIVEN getters on a row, a plain one or a class instance THEN each is read once per copy, as Object.assign reads it', () => {
    const copier = new RowCopier(['id']);
    let reads = 0;
    const row = {
      name: 'a',
      get score() {
        reads++;
        return 3;
      },
    };
    for (let round = 0; round < 5; round++) expect(copier.copy(row).score).toBe(3);
    expect(reads).toBe(5);
    // A class instance of the same keys goes through the same shape's copy, and its getter too.
    class Player {
      name = 'b';
    }
    const instance = Object.defineProperty(new Player(), 'score', {
      enumerable: true,
      get() {
        reads++;
        return 4;
      },
    });
    for (let round = 0; round < 5; round++)
      expect(copier.copy(instance)).toEqual({ name: 'b', score: 4, id: undefined });
    expect(reads).toBe(10);
  });

  test('GIVEN a row of more than 64 columns THEN it is copied exactly', () => {
    const copier = new RowCopier(['id']);
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`c${i}`, i]));
    for (let round = 0; round < 3; round++) expectCopy(copier, wide);
  });

  test('GIVEN a process that refuses code generation from strings THEN rows are still copied exactly', () => {
    const source = fileURLToPath(new URL('../src/row-copier.ts', import.meta.url));
    const script = `
      const { RowCopier } = await import(${JSON.stringify(source)});
      const copier = new RowCopier(['id']);
      const out = [];
      for (let i = 0; i < 3; i++) out.push(copier.copy({ name: 'a' + i, score: i }));
      let refused = false;
      try { new Function('return 1'); } catch { refused = true; }
      console.log(JSON.stringify({ refused, out, keys: Object.keys(out[2]) }));`;
    const printed = execFileSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(printed)).toEqual({
      refused: true,
      out: [
        { name: 'a0', score: 0 },
        { name: 'a1', score: 1 },
        { name: 'a2', score: 2 },
      ],
      keys: ['name', 'score', 'id'],
    });
  });
});
