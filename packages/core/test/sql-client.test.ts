import { describe, expect, test } from 'vitest';
import { rewriteSqlPlaceholders, toPostgresPlaceholders } from '../src/adapter.js';
import { InvalidArgumentError } from '../src/index.js';
import { assertSqlClient } from '../src/sql-client.js';

describe('toPostgresPlaceholders', () => {
  test.each([
    ['SELECT ?', 'SELECT $1'],
    ['UPDATE t SET a = ?, b = ? WHERE c = ?', 'UPDATE t SET a = $1, b = $2 WHERE c = $3'],
    ["SELECT '?', 'it''s ?', ?", "SELECT '?', 'it''s ?', $1"],
    ['SELECT "odd?name" FROM t WHERE b = ?', 'SELECT "odd?name" FROM t WHERE b = $1'],
    ['SELECT ? -- why?\n, ?', 'SELECT $1 -- why?\n, $2'],
    ['SELECT /* ? */ ?', 'SELECT /* ? */ $1'],
    ['SELECT 1', 'SELECT 1'],
  ])('GIVEN %j THEN %j', (sql, expected) => {
    expect(toPostgresPlaceholders(sql)).toBe(expected);
  });
});

describe('rewriteSqlPlaceholders', () => {
  test('GIVEN a quoted-text callback THEN it sees each quoted string, identifier and comment whole, and placeholders are numbered around them', () => {
    const seen: string[] = [];
    const out = rewriteSqlPlaceholders(
      `SELECT 'a?', "b?" /* c? */ FROM t WHERE x = ? AND y = ? -- d?`,
      (n) => `:p${n}`,
      (quoted) => {
        seen.push(quoted);
        return quoted.toUpperCase();
      },
    );
    expect(out).toBe(`SELECT 'A?', "B?" /* C? */ FROM t WHERE x = :p1 AND y = :p2 -- D?`);
    expect(seen).toEqual(["'a?'", '"b?"', '/* c? */', '-- d?']);
  });
});

describe('assertSqlClient', () => {
  const ok = { dialect: 'mysql', query: async () => [], execute: async () => 0 };

  test('GIVEN a complete client THEN it returns it', () => {
    expect(assertSqlClient(ok)).toBe(ok);
  });

  test.each([
    ['null', null, 'client'],
    ['an unknown dialect', { ...ok, dialect: 'mssql' }, 'client.dialect'],
    ['no execute', { dialect: 'sqlite', query: ok.query }, 'client.execute'],
    ['no query', { dialect: 'postgres', execute: ok.execute }, 'client.query'],
  ])('GIVEN %s THEN it throws InvalidArgumentError naming %s', (_case, value, argument) => {
    const err = (() => {
      try {
        assertSqlClient(value);
      } catch (e) {
        return e;
      }
    })() as InvalidArgumentError;
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.argument).toBe(argument);
  });
});
