import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { hasExactSqliteIntegers } from '../src/adapter.js';
import { exactSqliteIntegers } from '../src/index.js';

const MAX = 2n ** 63n - 1n;
const ABOVE_2_53 = 2n ** 53n + 1n;

describe('exactSqliteIntegers', () => {
  const open: Database.Database[] = [];
  const memory = () => {
    const db = new Database(':memory:');
    open.push(db);
    db.exec('CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, qty INT NOT NULL)');
    db.prepare('INSERT INTO t (id, qty) VALUES (?, ?), (?, ?)').run(MAX, 1, ABOVE_2_53, 2);
    return db;
  };
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  test('GIVEN a plain connection THEN better-sqlite3 rounds 2^63-1 to a Number (what the hook is for)', () => {
    const db = memory();
    expect(hasExactSqliteIntegers(db)).toBe(false);
    expect(db.prepare('SELECT id FROM t WHERE qty = 1').get()).toEqual({ id: 2 ** 63 });
  });

  test('GIVEN the hook THEN unsafe integers read as exact bigints and safe ones stay Numbers, in objects, raw rows and plucked values', () => {
    const db = memory();
    exactSqliteIntegers(db);
    expect(hasExactSqliteIntegers(db)).toBe(true);
    expect(db.prepare('SELECT id, qty FROM t ORDER BY qty').all()).toEqual([
      { id: MAX, qty: 1 },
      { id: ABOVE_2_53, qty: 2 },
    ]);
    expect(db.prepare('SELECT id, qty FROM t ORDER BY qty').raw().all()).toEqual([
      [MAX, 1],
      [ABOVE_2_53, 2],
    ]);
    expect(db.prepare('SELECT id FROM t WHERE qty = 2').pluck().get()).toBe(ABOVE_2_53);
    expect([...db.prepare('SELECT qty FROM t ORDER BY qty').pluck().iterate()]).toEqual([1, 2]);
  });

  test('GIVEN the hook applied twice THEN it wraps once and writes still report their changes', () => {
    const db = memory();
    exactSqliteIntegers(db);
    const prepare = db.prepare;
    exactSqliteIntegers(db);
    expect(db.prepare).toBe(prepare);
    expect(db.prepare('UPDATE t SET qty = qty + 1').run().changes).toBe(2);
    expect(db.prepare('SELECT SUM(qty) AS n FROM t').get()).toEqual({ n: 5 });
  });
});
