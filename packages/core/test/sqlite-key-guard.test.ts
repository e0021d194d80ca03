import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { InvalidArgumentError, sqliteKeyGuardDdl } from '../src/index.js';

function rowidTable(guarded: boolean) {
  const db = new Database(':memory:');
  db.defaultSafeIntegers(true);
  db.exec('CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  if (guarded) db.exec(sqliteKeyGuardDdl('players'));
  return db;
}

describe('sqliteKeyGuardDdl', () => {
  test('GIVEN a rowid key without the guard THEN SQLite fills a missing key itself (what the guard is for)', () => {
    const db = rowidTable(false);
    db.prepare('INSERT INTO players (name) VALUES (?)').run('a');
    db.prepare('INSERT INTO players (id, name) VALUES (NULL, ?)').run('b');
    expect(db.prepare('SELECT id FROM players ORDER BY id').all()).toEqual([{ id: 1n }, { id: 2n }]);
  });

  test.each([
    ['an omitted key', 'INSERT INTO players (name) VALUES (?)', ['a']],
    ['a NULL key', 'INSERT INTO players (id, name) VALUES (NULL, ?)', ['a']],
    ['0', 'INSERT INTO players (id, name) VALUES (0, ?)', ['a']],
    ['a negative key', 'INSERT INTO players (id, name) VALUES (-5, ?)', ['a']],
  ])('GIVEN the guard and %s THEN the INSERT is refused and nothing is written', (_what, sql, params) => {
    const db = rowidTable(true);
    expect(() => db.prepare(sql).run(...params)).toThrow(
      'players.id must be set by the application: a key in 1..2^63-1, not NULL',
    );
    expect(db.prepare('SELECT COUNT(*) AS n FROM players').get()).toEqual({ n: 0n });
  });

  test('GIVEN the guard THEN keys 1 and 2^63-1 are written and read back exactly, and a rerun of the DDL changes nothing', () => {
    const db = rowidTable(true);
    db.exec(sqliteKeyGuardDdl('players'));
    const insert = db.prepare('INSERT INTO players (id, name) VALUES (?, ?)');
    insert.run(1n, 'one');
    insert.run(2n ** 63n - 1n, 'max');
    expect(db.prepare('SELECT id FROM players ORDER BY id').all()).toEqual([
      { id: 1n },
      { id: 9223372036854775807n },
    ]);
  });

  test.each([
    ['table', ['players; DROP TABLE x', 'id']],
    ['table', ['', 'id']],
    ['column', ['players', '1id']],
  ] as const)(
    'GIVEN a %s that is not an identifier THEN InvalidArgumentError names it',
    (argument, [table, column]) => {
      expect(() => sqliteKeyGuardDdl(table, column)).toThrow(InvalidArgumentError);
      expect(() => sqliteKeyGuardDdl(table, column)).toThrow(`"${argument}" must be an SQL identifier`);
    },
  );
});
