import { manualClock, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { type OpenedDrizzle, openDrizzle } from './open-drizzle.js';
import { clearTables, createTables, mysqlSchema, pgSchema, sqliteSchema } from './schema.js';

const ABOVE_2_53 = 2n ** 53n + 1n;
const MAX_I64 = 2n ** 63n - 1n;

// What Drizzle 0.45 itself does around a $defaultFn id, pinned so that a Drizzle release that
// changes it fails here and the README is corrected with it.
describeEachDialect('drizzle behaviour around $defaultFn ids', (ctx) => {
  let opened: OpenedDrizzle;
  let generator: Snowflake;

  beforeAll(async () => {
    await createTables(ctx.db);
    opened = openDrizzle(ctx.db);
    generator = new Snowflake({ workerId: 5, clock: manualClock(Date.UTC(2026, 0, 1), 1).now });
  });
  afterAll(async () => {
    await opened?.close();
  });
  beforeEach(() => clearTables(ctx.db));

  test('GIVEN a prepared insert that leaves the id out THEN $defaultFn ran once, when it was prepared: the second execution reuses the id and fails on the key', async () => {
    const run = preparedInsert(opened, generator, false);
    await run('Aria');
    await expect(run('Bo')).rejects.toThrow();
    expect(await ctx.db.query('SELECT name FROM players')).toEqual([{ name: 'Aria' }]);
  });

  test('GIVEN a prepared insert with the id as a placeholder THEN each execution takes the id it is given', async () => {
    const run = preparedInsert(opened, generator, true);
    const ids = [generator.nextId(), generator.nextId()];
    await run('Aria', ids[0]);
    await run('Bo', ids[1]);
    expect(await ctx.db.query('SELECT id, name FROM players ORDER BY name')).toEqual([
      { id: String(ids[0]), name: 'Aria' },
      { id: String(ids[1]), name: 'Bo' },
    ]);
  });

  test('GIVEN ids at 2^53+1 and 2^63-1 in a key and a reference THEN a join reads both back exactly', async () => {
    await ctx.db.query('INSERT INTO players (id, name, qty) VALUES (?, ?, 1), (?, ?, 1)', [
      MAX_I64,
      'max',
      ABOVE_2_53,
      'above',
    ]);
    await ctx.db.query('INSERT INTO items (id, serial_no, owner_id) VALUES (?, ?, ?), (?, ?, ?)', [
      ABOVE_2_53,
      MAX_I64,
      MAX_I64,
      MAX_I64,
      ABOVE_2_53,
      ABOVE_2_53,
    ]);
    expect(await joined(opened, generator)).toEqual([
      { item: ABOVE_2_53, serial: MAX_I64, owner: MAX_I64, name: 'max' },
      { item: MAX_I64, serial: ABOVE_2_53, owner: ABOVE_2_53, name: 'above' },
    ]);
  });

  if (ctx.dialect !== 'mysql') {
    test('GIVEN onConflictDoNothing THEN RETURNING leaves the skipped row out: its stored id is not reported', async () => {
      const rows = [
        { name: 'Aria', qty: 9 },
        { name: 'Bo', qty: 2 },
      ];
      await ctx.db.query('INSERT INTO players (id, name, qty) VALUES (?, ?, 1)', [7n, 'Aria']);
      let returned: { name: string }[];
      if (opened.dialect === 'postgres') {
        const { players } = pgSchema(generator);
        returned = await opened.db
          .insert(players)
          .values(rows)
          .onConflictDoNothing()
          .returning({ name: players.name });
      } else {
        const { players } = sqliteSchema(generator);
        const { db } = opened as Extract<OpenedDrizzle, { dialect: 'sqlite' }>;
        returned = await db
          .insert(players)
          .values(rows)
          .onConflictDoNothing()
          .returning({ name: players.name });
      }
      expect(returned).toEqual([{ name: 'Bo' }]);
    });
  }

  if (ctx.dialect === 'mysql') {
    test('GIVEN onDuplicateKeyUpdate on an existing row THEN $returningId() throws a TypeError inside Drizzle (it counts affectedRows, 2 for an updated row)', async () => {
      const { db } = opened as Extract<OpenedDrizzle, { dialect: 'mysql' }>;
      const { players } = mysqlSchema(generator);
      await db.insert(players).values({ name: 'Aria', qty: 1 });
      const upsert = db
        .insert(players)
        .values({ name: 'Aria', qty: 2 })
        .onDuplicateKeyUpdate({ set: { qty: sql`values(${players.qty})` } })
        .$returningId();
      await expect(upsert).rejects.toThrow(TypeError);
      expect(await ctx.db.query('SELECT qty FROM players')).toEqual([{ qty: 2 }]);
    });

    test('GIVEN insert ignore that skips an existing row THEN $returningId() reports the skipped row its unused id, and the inserted row none', async () => {
      const { db } = opened as Extract<OpenedDrizzle, { dialect: 'mysql' }>;
      const { players } = mysqlSchema(generator);
      const [aria] = await db.insert(players).values({ name: 'Aria', qty: 1 }).$returningId();
      const [skippedAria, bo] = [generator.nextId(), generator.nextId()];
      const reported = await db
        .insert(players)
        .ignore()
        .values([
          { id: skippedAria, name: 'Aria', qty: 9 },
          { id: bo, name: 'Bo', qty: 2 },
        ])
        .$returningId();
      expect(reported).toEqual([{ id: skippedAria }]);
      expect(await ctx.db.query('SELECT id, name FROM players ORDER BY name')).toEqual([
        { id: String(aria!.id), name: 'Aria' },
        { id: String(bo), name: 'Bo' },
      ]);
    });
  }
});

/** A prepared INSERT of one player by name, with the id as a placeholder or left out. */
function preparedInsert(opened: OpenedDrizzle, generator: Snowflake, idPlaceholder: boolean) {
  const values = {
    name: sql.placeholder('name'),
    qty: 1,
    ...(idPlaceholder ? { id: sql.placeholder('id') } : {}),
  };
  switch (opened.dialect) {
    case 'postgres': {
      const q = opened.db
        .insert(pgSchema(generator).players)
        .values(values)
        .prepare(idPlaceholder ? 'insert_player_with_id' : 'insert_player');
      return async (name: string, id?: bigint) => void (await q.execute({ name, id }));
    }
    case 'mysql': {
      const q = opened.db.insert(mysqlSchema(generator).players).values(values).prepare();
      return async (name: string, id?: bigint) => void (await q.execute({ name, id }));
    }
    case 'sqlite': {
      const q = opened.db.insert(sqliteSchema(generator).players).values(values).prepare();
      return async (name: string, id?: bigint) => void q.run({ name, id });
    }
  }
}

/** Items joined to their owners, through Drizzle, ordered by item id. */
async function joined(opened: OpenedDrizzle, generator: Snowflake) {
  switch (opened.dialect) {
    case 'postgres': {
      const s = pgSchema(generator);
      return opened.db
        .select({ item: s.items.id, serial: s.items.serialNo, owner: s.items.ownerId, name: s.players.name })
        .from(s.items)
        .innerJoin(s.players, eq(s.items.ownerId, s.players.id))
        .orderBy(s.items.id);
    }
    case 'mysql': {
      const s = mysqlSchema(generator);
      return opened.db
        .select({ item: s.items.id, serial: s.items.serialNo, owner: s.items.ownerId, name: s.players.name })
        .from(s.items)
        .innerJoin(s.players, eq(s.items.ownerId, s.players.id))
        .orderBy(s.items.id);
    }
    case 'sqlite': {
      const s = sqliteSchema(generator);
      return opened.db
        .select({ item: s.items.id, serial: s.items.serialNo, owner: s.items.ownerId, name: s.players.name })
        .from(s.items)
        .innerJoin(s.players, eq(s.items.ownerId, s.players.id))
        .orderBy(s.items.id);
    }
  }
}
