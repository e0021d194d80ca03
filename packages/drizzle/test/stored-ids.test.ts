import { InvalidArgumentError, manualClock, Snowflake, UpsertReadBackError } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { storedIds } from '../src/mysql-core.js';
import { type OpenedDrizzle, openDrizzle } from './open-drizzle.js';
import { clearTables, createTables, mysqlSchema } from './schema.js';

describeEachDialect(
  'storedIds',
  (ctx) => {
    let opened: Extract<OpenedDrizzle, { dialect: 'mysql' }>;
    let schema: ReturnType<typeof mysqlSchema>;

    beforeAll(async () => {
      await createTables(ctx.db);
      opened = openDrizzle(ctx.db) as typeof opened;
      schema = mysqlSchema(new Snowflake({ workerId: 2, clock: manualClock(Date.UTC(2026, 0, 1), 1).now }));
    });
    afterAll(async () => {
      await opened?.close();
    });
    beforeEach(() => clearTables(ctx.db));

    const upsert = (rows: { name: string; qty: number }[]) =>
      opened.db.transaction(async (tx) => {
        const { players } = schema;
        await tx
          .insert(players)
          .values(rows)
          .onDuplicateKeyUpdate({ set: { qty: sql`values(${players.qty})` } });
        return storedIds(tx, players, rows, { id: players.id, target: players.name });
      });

    test("GIVEN 250 rows, half of them existing THEN each row's stored id comes back in input order, across several lookup statements", async () => {
      const existing = Array.from({ length: 125 }, (_, i) => ({ name: `p${i * 2}`, qty: 0 }));
      await opened.db.insert(schema.players).values(existing);
      const rows = Array.from({ length: 250 }, (_, i) => ({ name: `p${i}`, qty: i }));
      const ids = await upsert(rows);
      const stored = await ctx.db.query<{ id: string; name: string; qty: number }>(
        'SELECT id, name, qty FROM players',
      );
      expect(stored).toHaveLength(250);
      const byName = new Map(stored.map((r) => [r.name, r]));
      expect(ids.map(String)).toEqual(rows.map((r) => byName.get(r.name)!.id));
      expect(rows.every((r) => byName.get(r.name)!.qty === r.qty)).toBe(true);
    });

    test('GIVEN a name that differs only in case THEN the database collation decides, as it did for the conflict: the existing id is reported', async () => {
      const [aria] = await opened.db.insert(schema.players).values({ name: 'Aria', qty: 1 }).$returningId();
      expect(await upsert([{ name: 'ARIA', qty: 4 }])).toEqual([aria!.id]);
      expect(await ctx.db.query('SELECT id, name, qty FROM players')).toEqual([
        { id: String(aria!.id), name: 'Aria', qty: 4 },
      ]);
    });

    test('GIVEN a row that cannot be found by its target THEN UpsertReadBackError names the row, and the transaction keeps nothing', async () => {
      const { players } = schema;
      const attempt = opened.db.transaction(async (tx) => {
        await tx.insert(players).values({ name: 'Aria', qty: 1 });
        return storedIds(tx, players, [{ name: 'Bo', qty: 1 }], { id: players.id, target: players.name });
      });
      await expect(attempt).rejects.toThrow(UpsertReadBackError);
      await expect(attempt).rejects.toMatchObject({ rowIndex: 0, matches: 0, conflictColumns: ['name'] });
      expect(await ctx.db.query('SELECT name FROM players')).toEqual([]);
    });

    test.each<[string, object[], { id?: string; target?: string | [] }, string]>([
      ['a NULL target value', [{ name: null }], { target: 'name' }, 'rows[0].name'],
      ['a missing target value', [{ qty: 1 }], { target: 'name' }, 'rows[0].name'],
      ['an id column of another table', [{ name: 'a' }], { id: 'items.id' }, 'options.id'],
      ['a target column of another table', [{ name: 'a' }], { target: 'items.label' }, 'options.target[0]'],
      ['no target column', [{ name: 'a' }], { target: [] }, 'options.target'],
    ])(
      'GIVEN %s THEN storedIds throws an InvalidArgumentError naming the bad argument',
      async (_label, rows, override, argument) => {
        const { players, items } = schema;
        const columns = { name: players.name, 'items.id': items.id, 'items.label': items.label } as const;
        const pick = (v: unknown) => (typeof v === 'string' ? columns[v as keyof typeof columns] : v);
        const options = {
          id: pick(override.id ?? players.id),
          target: pick(override.target ?? players.name),
        } as never;
        const err = await storedIds(opened.db, players, rows as never, options).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidArgumentError);
        expect((err as InvalidArgumentError).argument).toBe(argument);
      },
    );
  },
  { dialects: ['mysql'] },
);
