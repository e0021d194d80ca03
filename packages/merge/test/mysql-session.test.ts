import { createTestDatabase, type DroppableTestDatabase, selectedDialects } from '@snowkey/test-harness';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mysqlDatabase } from '../src/index.js';

const SESSION_BYTES = 256 * 1024 * 1024;
const tempTableSizes = 'SELECT @@session.tmp_table_size AS tmp, @@session.max_heap_table_size AS heap';

describe.runIf(selectedDialects().includes('mysql'))('a merge session on MariaDB', () => {
  let oracle: DroppableTestDatabase;
  let pool: mysql.Pool;
  beforeAll(async () => {
    oracle = await createTestDatabase('mysql', 'session_temp');
    pool = mysql.createPool({ uri: oracle.url, connectionLimit: 1 });
  });
  afterAll(async () => {
    await pool?.end();
    await oracle?.drop();
  });

  test('GIVEN a pool of one connection WHEN a session runs THEN its temporary tables may hold 256 MiB in memory, and the connection goes back with the server defaults', async () => {
    const [[defaults]] = (await pool.query(tempTableSizes)) as unknown as [Record<string, unknown>[]];
    const db = mysqlDatabase(pool, oracle.name);
    const inside = await db.session((s) => s.query<{ tmp: unknown; heap: unknown }>(tempTableSizes));
    expect(inside.map((r) => [String(r.tmp), String(r.heap)])).toEqual([
      [String(SESSION_BYTES), String(SESSION_BYTES)],
    ]);
    const [[after]] = (await pool.query(tempTableSizes)) as unknown as [Record<string, unknown>[]];
    expect(after).toEqual(defaults);
    expect(String(defaults?.tmp)).not.toBe(String(SESSION_BYTES));
  });
});
