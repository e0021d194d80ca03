import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DATABASE_HOLDER,
  decode,
  defineLayout,
  layouts,
  leaseNodeId,
  mysqlSqlClient,
  pgSqlClient,
  Snowflake,
  type SqlClient,
  sqlGeneratorScript,
  sqlGeneratorUninstallScript,
  WorkerIdLeaseError,
} from '@snowkey/core';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect, selectedDialects } from '../helpers/databases.js';
import { type JsonChild, startJsonChild } from '../helpers/json-child.js';
import type { TestDatabase } from '../helpers/test-database.js';
import { openSqlSession, type SqlSession } from './sql-sessions.js';

const APP_CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'app-child.ts');
const layout = layouts.snowkey;
const APPS = 2;
const APP_IDS = 10_000;
const SESSIONS = 8;
const STATEMENTS = 100;
const ROWS_PER_STATEMENT = 10;

interface OrderRow {
  readonly id: bigint;
  readonly src: string;
  readonly session: number;
  readonly n: number;
}

// The database's generator (`snowkey sql install`) beside application processes leasing node ids
// from the same table: one `orders` table, every writer at once, read back with raw SQL.
describeEachDialect(
  'snowkey_next_id(): ids from SQL beside the application',
  (ctx) => {
    const children: JsonChild[] = [];
    const sessions: SqlSession[] = [];
    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
        await c.exited;
      }
      for (const s of sessions.splice(0)) await s.close();
    });

    const session = async () => {
      const s = await openSqlSession(ctx.db);
      sessions.push(s);
      return s;
    };

    const reinstall = async () => {
      const dialect = ctx.db.dialect as 'postgres' | 'mysql';
      await ctx.db.query('DROP TABLE IF EXISTS orders');
      await ctx.db.query(`DROP FUNCTION IF EXISTS snowkey_next_id${dialect === 'postgres' ? '()' : ''}`);
      await ctx.db.query('DROP TABLE IF EXISTS snowkey_sql_nodes');
      await ctx.db.query('DROP TABLE IF EXISTS snowkey_node_leases');
      const columns = 'src VARCHAR(8) NOT NULL, session INTEGER NOT NULL, n INTEGER NOT NULL';
      // On MySQL the table comes first: the trigger is created on it.
      if (dialect === 'mysql')
        await ctx.db.query(`CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, ${columns})`);
      for (const sql of sqlGeneratorScript({ layout, dialect, fill: fillFor(dialect) }).statements)
        await ctx.db.query(sql);
      if (dialect === 'postgres')
        await ctx.db.query(
          `CREATE TABLE orders (id BIGINT PRIMARY KEY DEFAULT snowkey_next_id(), ${columns})`,
        );
    };

    /** `count` rows per statement from one session, key left to the database. */
    const insertFromSql = async (s: SqlSession, index: number, statements: number, rows: number) => {
      for (let k = 0; k < statements; k++) {
        const values = Array.from({ length: rows }, (_, i) => `('sql', ${index}, ${k * rows + i})`).join(
          ', ',
        );
        await s.query(`INSERT INTO orders (src, session, n) VALUES ${values}`);
      }
    };

    const readOrders = async (): Promise<OrderRow[]> =>
      (await ctx.db.query<Record<string, string>>('SELECT id, src, session, n FROM orders')).map((r) => ({
        id: BigInt(r.id!),
        src: String(r.src),
        session: Number(r.session),
        n: Number(r.n),
      }));

    const databaseNodeIds = async () =>
      (
        await ctx.db.query<{ node_id: string }>(
          `SELECT node_id FROM snowkey_node_leases WHERE holder = '${DATABASE_HOLDER}' ORDER BY node_id`,
        )
      ).map((r) => Number(r.node_id));

    const nodeOf = (id: bigint) => decode(id, { layout }).workerId;

    /** Within each SQL session, the ids of one node id grow with the order they were asked for. */
    const expectIncreasingPerSessionAndNode = (rows: readonly OrderRow[]) => {
      const last = new Map<string, OrderRow>();
      for (const row of [...rows]
        .filter((r) => r.src === 'sql')
        .sort((a, b) => a.session - b.session || a.n - b.n)) {
        const key = `${row.session}/${nodeOf(row.id)}`;
        const before = last.get(key);
        if (before) expect(row.id, `session ${row.session}, row ${row.n}`).toBeGreaterThan(before.id);
        last.set(key, row);
      }
    };

    test(`GIVEN ${APPS} application processes and ${SESSIONS} SQL sessions inserting into one table at once THEN no id collides AND each decodes to a node id leased by the application or registered by the database`, async () => {
      await reinstall();
      const apps = Array.from({ length: APPS }, () => {
        const child = startJsonChild(APP_CHILD, {
          APP_DIALECT: ctx.db.dialect,
          APP_URL: ctx.db.url,
          APP_COUNT: APP_IDS,
        });
        children.push(child);
        return child;
      });
      const leased = await Promise.all(apps.map((c) => c.waitFor((e) => e.event === 'leased')));
      const sqlSessions = await Promise.all(Array.from({ length: SESSIONS }, session));
      for (const c of apps) c.go();
      await Promise.all(sqlSessions.map((s, i) => insertFromSql(s, i, STATEMENTS, ROWS_PER_STATEMENT)));
      for (const end of await Promise.all(apps.map((c) => c.exited)))
        expect(end, end.stderr).toMatchObject({ code: 0 });

      const rows = await readOrders();
      const sqlRows = SESSIONS * STATEMENTS * ROWS_PER_STATEMENT;
      expect(rows).toHaveLength(APPS * APP_IDS + sqlRows);
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);

      const dbNodes = await databaseNodeIds();
      const appNodes = leased.map((e) => Number(e.nodeId));
      expect(dbNodes).toEqual([1020, 1021, 1022, 1023]);
      expect(appNodes.sort()).toEqual([0, 1]);
      for (const row of rows) {
        if (row.src === 'app') expect(nodeOf(row.id)).toBe(row.session);
        else expect(dbNodes).toContain(nodeOf(row.id));
      }
      expectIncreasingPerSessionAndNode(rows);
      // The sessions spread over the database's node ids instead of queueing on one.
      expect(new Set(rows.filter((r) => r.src === 'sql').map((r) => nodeOf(r.id))).size).toBeGreaterThan(1);
    });

    test('GIVEN a stored last timestamp an hour ahead of the clock (a clock set back) THEN ids continue above it, past a used-up sequence, without a duplicate', async () => {
      await reinstall();
      const s = await session();
      await insertFromSql(s, 0, 1, 50);
      const before = await readOrders();
      const ahead = Math.floor((Date.now() + 3_600_000 - layout.epoch) / layout.timeUnitMs);
      // 4000 of 4096 sequence values used: the next unit comes within 96 ids, as in a burst.
      await setState(ctx.db, 'snowkey_sql_nodes', ahead, 4000);

      const writers = await Promise.all(Array.from({ length: SESSIONS }, session));
      await Promise.all(writers.map((w, i) => insertFromSql(w, i + 1, 10, 30)));

      const rows = await readOrders();
      expect(rows).toHaveLength(50 + SESSIONS * 300);
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      const previous = new Set(before.map((r) => r.id));
      const after = rows.filter((r) => !previous.has(r.id));
      expect(after).toHaveLength(SESSIONS * 300);
      for (const row of after) {
        const d = decode(row.id, { layout });
        expect(d.timestamp).toBeGreaterThanOrEqual(layout.epoch + ahead * layout.timeUnitMs);
      }
      expect(Math.max(...after.map((r) => decode(r.id, { layout }).timestamp))).toBeGreaterThan(
        layout.epoch + ahead * layout.timeUnitMs,
      );
      expectIncreasingPerSessionAndNode(rows);
    });

    // PostgreSQL only: its per-node sequences never reissue an id (MySQL/MariaDB keep the state in a
    // row that rolls back with the transaction, as the guide says), so the case exists only there.
    if (ctx.dialect === 'postgres')
      test('GIVEN an id taken in a transaction that rolls back THEN it is not issued again', async () => {
        await reinstall();
        const s = await session();
        await s.query('BEGIN');
        const [taken] = await s.query('SELECT snowkey_next_id() AS id');
        await s.query('ROLLBACK');
        const [next] = await s.query('SELECT snowkey_next_id() AS id');
        expect(BigInt(String(next!.id))).toBeGreaterThan(BigInt(String(taken!.id)));
      });

    test('GIVEN the database holds node ids THEN applications lease only the others AND after uninstall the next holder of a database node id starts after its last id', async () => {
      const dialect = ctx.db.dialect as 'postgres' | 'mysql';
      const tiny = defineLayout({
        name: 'tiny',
        timestampBits: 41,
        nodeBits: { workerId: 2 },
        sequenceBits: 12,
      });
      const options = {
        layout: tiny,
        dialect,
        leaseTable: 'tiny_leases',
        nodesTable: 'tiny_nodes',
        nodes: 2,
      };
      await ctx.db.query('DROP TABLE IF EXISTS orders'); // its key's DEFAULT uses the function this test replaces
      for (const sql of sqlGeneratorScript(options).statements) await ctx.db.query(sql);
      const { client, close } = await openClient(ctx.db);
      try {
        const first = await leaseNodeId({ client, layout: tiny, table: 'tiny_leases', heartbeat: false });
        const second = await leaseNodeId({ client, layout: tiny, table: 'tiny_leases', heartbeat: false });
        expect([first.nodeId, second.nodeId]).toEqual([0, 1]);
        await expect(leaseNodeId({ client, layout: tiny, table: 'tiny_leases' })).rejects.toThrow(
          WorkerIdLeaseError,
        );

        // The database's node ids used an hour ahead (its clock was ahead, or it borrowed).
        const ahead = Math.floor((Date.now() + 3_600_000 - tiny.epoch) / tiny.timeUnitMs);
        await setState(ctx.db, 'tiny_nodes', ahead, 0);
        const [{ id: lastFromSql }] = (await ctx.db.query<{ id: string }>(
          'SELECT snowkey_next_id() AS id',
        )) as [{ id: string }];
        const used = decode(lastFromSql, { layout: tiny }).workerId;
        expect([2, 3]).toContain(used);

        for (const sql of sqlGeneratorUninstallScript(options).statements) await ctx.db.query(sql);
        const taker = await leaseNodeId({
          client,
          layout: tiny,
          table: 'tiny_leases',
          preferredNodeId: used,
          heartbeat: false,
        });
        expect(taker.nodeId).toBe(used);
        const next = new Snowflake({ layout: tiny, lease: taker }).nextId();
        expect(next).toBeGreaterThan(BigInt(lastFromSql));
        for (const l of [first, second, taker]) await l.release();
      } finally {
        await close();
      }
    });
  },
  { dialects: selectedDialects().filter((d) => d !== 'sqlite') },
);

/** Writes a node id's last (unit, sequence), as a clock set back would find it. */
async function setState(db: TestDatabase, table: string, unit: number, seq: number): Promise<void> {
  // PostgreSQL keeps it in a sequence per node id (unit << 12 | sequence, 12 sequence bits here).
  if (db.dialect === 'postgres')
    await db.query(`SELECT setval(seq, (${unit}::bigint << 12) | ${seq}) FROM ${table}`);
  else await db.query(`UPDATE ${table} SET last_unit = ${unit}, seq = ${seq}`);
}

function fillFor(dialect: 'postgres' | 'mysql'): string[] {
  return dialect === 'mysql' ? ['orders'] : [];
}

async function openClient(db: TestDatabase): Promise<{ client: SqlClient; close(): Promise<void> }> {
  if (db.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    return { client: pgSqlClient(pool), close: () => pool.end() };
  }
  const mysql = await import('mysql2/promise');
  const pool = mysql.createPool({
    uri: db.url,
    connectionLimit: 1,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return { client: mysqlSqlClient(pool), close: () => pool.end() };
}
