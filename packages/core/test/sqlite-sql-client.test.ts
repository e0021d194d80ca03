import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import {
  ConnectionInTransactionError,
  manualClock,
  SegmentAllocator,
  sqliteSqlClient,
} from '../src/index.js';

describe('sqliteSqlClient on a connection the application also uses', () => {
  const open: Database.Database[] = [];
  const connection = () => {
    const db = new Database(':memory:');
    open.push(db);
    db.exec('CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY)');
    return db;
  };
  const rows = (db: Database.Database) => db.prepare('SELECT id FROM t ORDER BY id').safeIntegers(true).all();
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  test('GIVEN no transaction open THEN statements run and commit on their own', async () => {
    const db = connection();
    const client = sqliteSqlClient(db);
    expect(await client.execute('INSERT INTO t (id) VALUES (?)', [2n ** 63n - 1n])).toBe(1);
    expect(await client.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 1 }]);
    expect(db.inTransaction).toBe(false);
    expect(rows(db)).toEqual([{ id: 2n ** 63n - 1n }]);
  });

  test.each([
    ['query', (c: ReturnType<typeof sqliteSqlClient>) => c.query('SELECT id FROM t')],
    ['execute', (c: ReturnType<typeof sqliteSqlClient>) => c.execute('INSERT INTO t (id) VALUES (?)', [7n])],
  ])(
    'GIVEN the application opened a transaction THEN %s is refused with ConnectionInTransactionError AND nothing ran in it',
    async (_method, call) => {
      const db = connection();
      db.exec('BEGIN');
      db.prepare('INSERT INTO t (id) VALUES (1)').run();
      const refused = await call(sqliteSqlClient(db)).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ConnectionInTransactionError);
      expect(refused).toMatchObject({ dialect: 'sqlite' });
      expect(db.inTransaction).toBe(true);
      db.exec('ROLLBACK');
      expect(rows(db)).toEqual([]);
    },
  );

  test('GIVEN a segment refill while the application holds a transaction THEN the fetch fails with the refusal as its cause AND the next one, after the transaction, takes the range the table records', async () => {
    const db = connection();
    // A fixed step of 10, fetched only when asked (nextIds(9) leaves one id: no prefetch).
    const allocator = new SegmentAllocator({
      client: sqliteSqlClient(db),
      tag: 't',
      step: 10,
      maxStep: 10,
      prefetchAt: 0.99,
      retryMs: 0,
      clock: manualClock(Date.UTC(2026, 0, 1)).now,
    });
    await allocator.ready();
    const first = allocator.nextIds(9);
    db.exec('BEGIN');
    const refused = await allocator.ready(2).catch((err: unknown) => err);
    db.exec('ROLLBACK');
    expect(refused).toMatchObject({
      name: 'SegmentStoreError',
      cause: { name: 'ConnectionInTransactionError' },
    });
    await allocator.ready(2);
    const later = allocator.nextIds(allocator.buffered);
    expect([...first, ...later]).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)));
    expect(db.prepare('SELECT max_id FROM snowkey_segments').get()).toEqual({ max_id: 20 });
    await allocator.close();
  });
});
