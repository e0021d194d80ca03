import { describe, expect, test } from 'vitest';
import { copyOrder } from '../src/copy-order.js';
import { renamed } from '../src/rename-template.js';
import type { TableInfo } from '../src/schema.js';
import { unescapeCopyText } from '../src/stage-load.js';
import { decodeKey, encodeKey } from '../src/values.js';

describe('renamed (rename templates)', () => {
  test.each([
    { value: 'Aria', label: 'S2', attempt: 1, max: undefined, expected: 'Aria.S2' },
    { value: 'Aria', label: 'S2', attempt: 2, max: undefined, expected: 'Aria.S2.2' },
    { value: 'Nyx7', label: 'S4095', attempt: 1, max: undefined, expected: 'Nyx7.S4095' },
    { value: 'Aria', label: 'S2', attempt: 1, max: 40, expected: 'Aria.S2' },
    { value: 'Bartholomew', label: 'S2', attempt: 1, max: 9, expected: 'Bartho.S2' },
    { value: 'Bartholomew', label: 'S2', attempt: 12, max: 8, expected: 'Ba.S2.12' },
    { value: '雪花雪花雪花', label: 'S2', attempt: 1, max: 6, expected: '雪花雪.S2' },
  ])(
    'GIVEN $value from $label, attempt $attempt, a column of $max THEN $expected',
    ({ value, label, attempt, max, expected }) => {
      expect(renamed(value, label, attempt, max)).toBe(expected);
      if (max !== undefined) expect([...expected].length).toBeLessThanOrEqual(max);
    },
  );

  test.each([
    { template: 'S{server}.{name}', attempt: 1, max: null, expected: 'S2.Aria' },
    { template: 'S{server}.{name}', attempt: 3, max: null, expected: 'S2.Aria.3' },
    { template: '{name}#{n}', attempt: 1, max: null, expected: 'Aria#1' },
    { template: '{name}#{n}', attempt: 12, max: 7, expected: 'Aria#12' },
    { template: '{name}#{n}', attempt: 12, max: 6, expected: 'Ari#12' },
    { template: '{label}-{name}', attempt: 1, max: 6, expected: 'S2-Ari' },
  ])(
    'GIVEN template $template, attempt $attempt, a column of $max THEN $expected',
    ({ template, attempt, max, expected }) => {
      expect(renamed('Aria', 'S2', attempt, max, template)).toBe(expected);
    },
  );

  test('GIVEN a column too short for the suffix THEN an InvalidArgumentError names maxLength', () => {
    expect(() => renamed('Aria', 'S2', 1, 3)).toThrow(expect.objectContaining({ argument: 'maxLength' }));
  });
});

describe('COPY text fields', () => {
  test.each([
    ['plain', 'plain'],
    ['back\\\\slash', 'back\\slash'],
    ['a\\tb', 'a\tb'],
    ['line\\nnext', 'line\nnext'],
    ['\\101\\x42', 'AB'],
  ])('GIVEN %j THEN its text is %j', (field, text) => {
    expect(unescapeCopyText(field)).toBe(text);
  });
});

describe('keys as text', () => {
  test('GIVEN keys of every kind THEN decodeKey(encodeKey(key)) gives each back', () => {
    for (const key of [
      [7n, 'sword'],
      [9223372036854775807n],
      [null, 1.5, new Date(0)],
      [Buffer.from('ab')],
    ]) {
      expect(decodeKey(encodeKey(key))).toEqual(key);
    }
  });

  test('GIVEN the same integer as a Number and a bigint THEN they encode alike', () => {
    expect(encodeKey([5])).toBe(encodeKey([5n]));
  });
});

const col = (name: string, nullable = false) => ({
  name,
  type: 'bigint',
  nullable,
  maxLength: null,
  integer: true,
  bigint: true,
  text: false,
  generated: false,
  autoIncrement: false,
});
const table = (name: string, refs: [string, string, boolean][]): TableInfo => ({
  name,
  columns: [col('id'), ...refs.map(([c, , nullable]) => col(c, nullable))],
  primaryKey: ['id'],
  uniques: [],
  foreignKeys: refs.map(([c, to]) => ({
    name: `${name}_${c}`,
    table: name,
    columns: [c],
    refTable: to,
    refColumns: ['id'],
  })),
});

describe('copyOrder', () => {
  test('GIVEN a chain and a nullable self-reference THEN parents come first and the self-reference is deferred', () => {
    const order = copyOrder([
      table('mail', [
        ['sender', 'players', false],
        ['reply_to', 'mail', true],
      ]),
      table('players', []),
    ]);
    expect(order.order).toEqual(['players', 'mail']);
    expect(order.deferred.map((fk) => fk.name)).toEqual(['mail_reply_to']);
    expect(order.cycles).toEqual([]);
  });

  test('GIVEN a cycle with one nullable link THEN that link is deferred and the order holds', () => {
    const order = copyOrder([
      table('players', [['guild', 'guilds', true]]),
      table('guilds', [['leader', 'players', false]]),
    ]);
    expect(order.order).toEqual(['players', 'guilds']);
    expect(order.deferred.map((fk) => fk.name)).toEqual(['players_guild']);
  });

  test('GIVEN a cycle through NOT NULL columns only THEN it is refused, naming the tables and columns', () => {
    const order = copyOrder([table('a', [['b_id', 'b', false]]), table('b', [['a_id', 'a', false]])]);
    expect(order.order).toEqual([]);
    expect(order.cycles).toEqual([
      expect.stringContaining('foreign-key cycle a -> b through NOT NULL columns a.b_id, b.a_id'),
    ]);
  });
});
