import { describe, expect, test } from 'vitest';
import { resolveSnowflakeColumns, type SnowflakeColumnsWords } from '../src/adapter.js';
import { InvalidArgumentError } from '../src/index.js';

const generator = { nextId: () => 1n };
const tables = { option: 'tables', owner: 'table', column: 'column' } as const;
const models = { option: 'models', owner: 'model', column: 'field' } as const;

function refusal(options: unknown, words: SnowflakeColumnsWords = tables): InvalidArgumentError {
  try {
    resolveSnowflakeColumns(options, words);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('expected resolveSnowflakeColumns to throw');
}

describe('resolveSnowflakeColumns', () => {
  test('GIVEN a column name or a list per table THEN each table maps to its columns, in order', () => {
    const resolved = resolveSnowflakeColumns(
      { generator, tables: { players: 'id', items: ['id', 'serial_no'] } },
      tables,
    );
    expect(resolved.generator).toBe(generator);
    expect([...resolved.columns]).toEqual([
      ['players', ['id']],
      ['items', ['id', 'serial_no']],
    ]);
    expect(Object.isFrozen(resolved.columns.get('items'))).toBe(true);
  });

  test('GIVEN an owner whose entry is undefined THEN it is left out', () => {
    const resolved = resolveSnowflakeColumns(
      { generator, models: { Player: 'id', Match: undefined } },
      models,
    );
    expect([...resolved.columns.keys()]).toEqual(['Player']);
  });

  test.each([
    ['no options', undefined, 'options', 'an object with "generator" and "tables"'],
    ['no generator', { tables: { players: 'id' } }, 'generator', 'nextId'],
    [
      'tables that are an array',
      { generator, tables: ['players'] },
      'tables',
      'an object mapping table names',
    ],
    ['an empty tables object', { generator, tables: {} }, 'tables', 'with at least one table'],
    [
      'only undefined entries',
      { generator, tables: { players: undefined } },
      'tables',
      'with at least one table',
    ],
    ['an empty table name', { generator, tables: { '': 'id' } }, 'tables', 'no table name empty'],
    ['an empty column list', { generator, tables: { players: [] } }, 'tables.players', 'non-empty array'],
    [
      'an empty column name',
      { generator, tables: { players: '' } },
      'tables.players',
      'non-empty column names',
    ],
    ['a repeated column', { generator, tables: { players: ['id', 'id'] } }, 'tables.players', 'distinct'],
    ['a column that is a number', { generator, tables: { players: 5 } }, 'tables.players', 'a column name'],
  ])('GIVEN %s THEN the error names %s and says what was expected', (_label, options, argument, expected) => {
    const error = refusal(options);
    expect(error.argument).toBe(argument);
    expect(error.expected).toContain(expected);
  });

  test('GIVEN the words of a model adapter THEN the errors speak of models and fields', () => {
    const error = refusal({ generator, models: { Player: ['id', 'id'] } }, models);
    expect(error.argument).toBe('models.Player');
    expect(error.expected).toBe('a field name or a non-empty array of distinct, non-empty field names');
    expect(error.received).toEqual(['id', 'id']);
  });
});
