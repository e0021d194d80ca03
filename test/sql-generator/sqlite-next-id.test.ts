import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decode,
  InvalidArgumentError,
  layouts,
  leaseNodeId,
  registerSqliteNextId,
  Snowflake,
  sqliteSqlClient,
} from '@snowkey/core';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { describeEachDialect, selectedDialects } from '../helpers/databases.js';
import { type JsonChild, startJsonChild } from '../helpers/json-child.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sqlite-child.ts');
const layout = layouts.snowkey;
const APPS = 2;
const SESSIONS = 8;
const ROWS = 1000;

// snowkey_next_id() on SQLite: registered per connection from that connection's own lease.
describeEachDialect(
  'registerSqliteNextId',
  (ctx) => {
    const children: JsonChild[] = [];
    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
        await c.exited;
      }
    });

    const fresh = async () => {
      await ctx.db.query('DROP TABLE IF EXISTS orders');
      await ctx.db.query('DROP TABLE IF EXISTS snowkey_node_leases');
      await ctx.db.query(
        'CREATE TABLE orders (id INTEGER PRIMARY KEY, src VARCHAR(8) NOT NULL, session INTEGER NOT NULL, n INTEGER NOT NULL)',
      );
    };

    test(`GIVEN ${APPS} application processes and ${SESSIONS} processes inserting through SQL into one file THEN no id collides AND each decodes to its writer's leased node id`, async () => {
      await fresh();
      const writers = Array.from({ length: APPS + SESSIONS }, (_, i) => {
        const child = startJsonChild(CHILD, {
          SQLITE_FILE: ctx.db.filename!,
          SQLITE_MODE: i < APPS ? 'app' : 'sql',
          SQLITE_SESSION: i,
          SQLITE_COUNT: ROWS,
        });
        children.push(child);
        return child;
      });
      const leased = await Promise.all(writers.map((c) => c.waitFor((e) => e.event === 'leased')));
      for (const c of writers) c.go();
      for (const end of await Promise.all(writers.map((c) => c.exited)))
        expect(end, end.stderr).toMatchObject({ code: 0 });

      const rows = await ctx.db.query<{ id: string; src: string; session: string; n: string }>(
        'SELECT id, src, session, n FROM orders ORDER BY session, n',
      );
      expect(rows).toHaveLength((APPS + SESSIONS) * ROWS);
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      const nodeOf = leased.map((e) => Number(e.nodeId));
      expect(new Set(nodeOf).size).toBe(APPS + SESSIONS);
      let previous: { session: number; id: bigint } | undefined;
      for (const row of rows) {
        const session = Number(row.session);
        const id = BigInt(row.id);
        expect(decode(id, { layout }).workerId).toBe(nodeOf[session]);
        expect(row.src).toBe(session < APPS ? 'app' : 'sql');
        if (previous?.session === session) expect(id).toBeGreaterThan(previous.id);
        previous = { session, id };
      }
    });

    test('GIVEN a node id whose last holder issued ids an hour ahead of the clock THEN a connection that leases it issues ids from SQL above them', async () => {
      await fresh();
      const db = new Database(ctx.db.filename!);
      try {
        const client = sqliteSqlClient(db);
        const first = await leaseNodeId({ client, layout, heartbeat: false });
        await first.release();
        const ahead = Date.now() + 3_600_000;
        await ctx.db.query(
          `UPDATE snowkey_node_leases SET high_water = ${ahead} WHERE node_id = ${first.nodeId}`,
        );

        const lease = await leaseNodeId({ client, layout, heartbeat: false, preferredNodeId: first.nodeId });
        expect(lease.nodeId).toBe(first.nodeId);
        registerSqliteNextId(db, { layout, lease });
        const ids = db
          .prepare('SELECT snowkey_next_id() AS id FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)')
          .safeIntegers(true)
          .all() as { id: bigint }[];
        expect(ids).toHaveLength(3);
        expect(new Set(ids.map((r) => r.id)).size).toBe(3);
        for (const { id } of ids) expect(decode(id, { layout }).timestamp).toBeGreaterThan(ahead);
        await lease.release();
      } finally {
        db.close();
      }
    });

    test("GIVEN the application's own generator THEN SQL and the application share one sequence", () => {
      const db = new Database(':memory:');
      try {
        const gen = new Snowflake({ layout, workerId: 5 });
        registerSqliteNextId(db, { generator: gen });
        const a = gen.nextId();
        const [{ id: b }] = db.prepare('SELECT snowkey_next_id() AS id').safeIntegers(true).all() as [
          { id: bigint },
        ];
        expect(b).toBeGreaterThan(a);
        expect(gen.nextId()).toBeGreaterThan(b);
      } finally {
        db.close();
      }
    });

    test('GIVEN something that is not a better-sqlite3 Database THEN it names the argument', () => {
      expect(() => registerSqliteNextId({} as never, { generator: new Snowflake({ workerId: 1 }) })).toThrow(
        InvalidArgumentError,
      );
    });
  },
  { dialects: selectedDialects().filter((d) => d === 'sqlite') },
);
