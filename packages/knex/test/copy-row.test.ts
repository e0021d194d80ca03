import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { rowCopier } from '../src/copy-row.js';

const entries = (row: object) =>
  Reflect.ownKeys(row).map((k) => [k, (row as Record<PropertyKey, unknown>)[k]]);

describe('rowCopier', () => {
  test('GIVEN rows of one shape THEN each copy is a new plain object with the row keys in order and the id column last', () => {
    const copy = rowCopier(['id']);
    for (const name of ['a', 'b', 'c']) {
      const row = { name, score: 1 };
      const copied = copy(row);
      expect(copied).not.toBe(row);
      expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
      expect(entries(copied)).toEqual([
        ['name', name],
        ['score', 1],
        ['id', undefined],
      ]);
      expect(entries(row)).toEqual([
        ['name', name],
        ['score', 1],
      ]);
    }
  });

  test('GIVEN a row holding an id column THEN the copy keeps its value and place', () => {
    const copy = rowCopier(['id', 'serial']);
    expect(entries(copy({ id: 7n, name: 'x' }))).toEqual([
      ['id', 7n],
      ['name', 'x'],
      ['serial', undefined],
    ]);
    expect(entries(copy({ id: 8n, name: 'y' }))).toEqual([
      ['id', 8n],
      ['name', 'y'],
      ['serial', undefined],
    ]);
  });

  test('GIVEN six shapes, the same keys in other orders among them THEN every copy holds its own row keys in its order', () => {
    const copy = rowCopier(['id']);
    const rows = [
      { a: 1, b: 2 },
      { b: 3, a: 4 },
      { a: 5 },
      { c: 6 },
      { d: 7, a: 8 },
      { e: 9 },
      { a: 10, b: 11 },
    ];
    for (const row of rows) expect(entries(copy(row))).toEqual([...entries(row), ['id', undefined]]);
  });

  test('GIVEN a row with an inherited enumerable key, a class instance, a symbol key THEN the copy holds own string keys only', () => {
    const copy = rowCopier(['id']);
    const plain = { name: 'p', inherited: 1 };
    expect(entries(copy(plain))).toEqual([...entries(plain), ['id', undefined]]);
    const child = Object.assign(Object.create({ inherited: 1 }) as object, { name: 'c' });
    expect(entries(copy(child))).toEqual([
      ['name', 'c'],
      ['id', undefined],
    ]);
    class Entity {
      name = 'e';
    }
    Object.defineProperty(Entity.prototype, 'id', { value: 99n, enumerable: true });
    expect(entries(copy(new Entity()))).toEqual([
      ['name', 'e'],
      ['id', undefined],
    ]);
    expect(entries(copy({ name: 's', [Symbol('meta')]: 1 }))).toEqual([
      ['name', 's'],
      ['id', undefined],
    ]);
  });

  test('GIVEN a row with an own "__proto__" key, twice THEN it stays a property and the prototype stays Object.prototype', () => {
    const copy = rowCopier(['id']);
    for (let i = 0; i < 2; i++) {
      const row = JSON.parse('{"__proto__": {"x": 1}, "name": "p"}') as object;
      const copied = copy(row);
      expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
      expect(entries(copied)).toEqual([
        ['__proto__', { x: 1 }],
        ['name', 'p'],
        ['id', undefined],
      ]);
    }
  });

  test('GIVEN a column name made of code THEN it is copied as a name and nothing runs', () => {
    const copy = rowCopier(['id']);
    const key = '"]: (globalThis.ran = 1), ["x';
    const copied = copy({ [key]: 'v' });
    expect(entries(copied)).toEqual([
      [key, 'v'],
      ['id', undefined],
    ]);
    expect((globalThis as { ran?: unknown }).ran).toBeUndefined();
  });

  test('GIVEN an enumerable key added to Object.prototype THEN copies still hold the own keys only', () => {
    const copy = rowCopier(['id']);
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 1,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    try {
      for (const name of ['a', 'b'])
        expect(entries(copy({ name }))).toEqual([
          ['name', name],
          ['id', undefined],
        ]);
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
  });

  test('GIVEN code generation from strings refused THEN rows are copied key by key', () => {
    const source = fileURLToPath(new URL('../src/copy-row.ts', import.meta.url));
    const script = `const { rowCopier } = await import(${JSON.stringify(source)});
      const copy = rowCopier(['id']);
      process.stdout.write(JSON.stringify([copy({ a: 1, b: 2 }), copy({ a: 3, b: 4 })].map((r) => Object.entries(r))));`;
    const out = execFileSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual([
      [
        ['a', 1],
        ['b', 2],
        ['id', null],
      ],
      [
        ['a', 3],
        ['b', 4],
        ['id', null],
      ],
    ]);
  });
});
