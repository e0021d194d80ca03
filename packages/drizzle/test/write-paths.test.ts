import { InvalidIdError, manualClock, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { DrizzleQueryError } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { databaseError } from './conformance-sessions.js';
import { type DialectOps, dialectOps } from './dialect-ops.js';
import { type OpenedDrizzle, openDrizzle } from './open-drizzle.js';
import { clearTables, createTables } from './schema.js';

describeEachDialect('drizzle write paths', (ctx) => {
  let opened: OpenedDrizzle;
  let ops: DialectOps;
  let generator: Snowflake;
  const players = () =>
    ctx.db.query<{ id: string; name: string; qty: number }>(
      'SELECT id, name, qty FROM players ORDER BY name',
    );

  beforeAll(async () => {
    await createTables(ctx.db);
    opened = openDrizzle(ctx.db);
    // The clock moves 1 ms per read, so ids never wait on the wall clock.
    generator = new Snowflake({ workerId: 3, clock: manualClock(Date.UTC(2026, 0, 1), 1).now });
    ops = dialectOps(opened, generator);
  });
  afterAll(async () => {
    await opened?.close();
  });
  beforeEach(() => clearTables(ctx.db));

  test('GIVEN an item without ids THEN its two NOT NULL snowflake columns and the nullable one get distinct ids, returned as stored', async () => {
    const input = { label: 'sword' };
    const [item] = await ops.insertItems([input, { label: 'no gift', giftCode: null }]);
    expect(new Set([item!.id, item!.serialNo, item!.giftCode]).size).toBe(3);
    expect(input).toEqual({ label: 'sword' });
    const stored = await ctx.db.query('SELECT id, serial_no, gift_code, label FROM items ORDER BY label');
    expect(stored).toEqual([
      expect.objectContaining({ label: 'no gift', gift_code: null }),
      {
        id: String(item!.id),
        serial_no: String(item!.serialNo),
        gift_code: String(item!.giftCode),
        label: 'sword',
      },
    ]);
  });

  test('GIVEN a player and its items in one db.transaction THEN the items refer to the id the player got before its INSERT', async () => {
    const { playerId, itemIds } = await ops.playerWithItems('Aria', ['bow', 'cloak']);
    expect(await players()).toEqual([{ id: String(playerId), name: 'Aria', qty: 1 }]);
    expect(await ctx.db.query('SELECT id, owner_id, label FROM items ORDER BY label')).toEqual([
      { id: String(itemIds[0]), owner_id: String(playerId), label: 'bow' },
      { id: String(itemIds[1]), owner_id: String(playerId), label: 'cloak' },
    ]);
  });

  test('GIVEN a transaction whose last insert fails THEN it rejects with the database error and keeps nothing', async () => {
    await ops.insertPlayers([{ name: 'taken', qty: 1 }]);
    const err = await ops
      .playersInTransaction([
        { name: 'new1', qty: 1 },
        { name: 'taken', qty: 2 },
      ])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect((databaseError(err) as Error).message).toMatch(/unique|duplicate/i);
    expect((await players()).map((p) => p.name)).toEqual(['taken']);
  });

  test("GIVEN a duplicate key THEN the insert rejects with the database's error and its code: as the cause of a DrizzleQueryError on pg and mysql2, as it is on better-sqlite3", async () => {
    await ops.insertPlayers([{ name: 'Aria', qty: 1 }]);
    const err = await ops.insertPlayers([{ name: 'Aria', qty: 2 }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err instanceof DrizzleQueryError).toBe(ctx.dialect !== 'sqlite');
    const code = { postgres: '23505', mysql: 'ER_DUP_ENTRY', sqlite: 'SQLITE_CONSTRAINT_UNIQUE' }[
      ctx.dialect
    ];
    expect(databaseError(err)).toMatchObject({ code });
  });

  test('GIVEN an existing player THEN an upsert that sets qty reports her stored id, and a fresh id for a new player', async () => {
    const [aria] = await ops.insertPlayers([{ name: 'Aria', qty: 1 }]);
    const [merged, bo] = await ops.upsertQty([
      { name: 'Aria', qty: 5 },
      { name: 'Bo', qty: 2 },
    ]);
    expect(merged).toBe(aria);
    expect(await players()).toEqual([
      { id: String(aria), name: 'Aria', qty: 5 },
      { id: String(bo), name: 'Bo', qty: 2 },
    ]);
  });

  test('GIVEN an existing player THEN an upsert that changes nothing reports her stored id and leaves her row alone', async () => {
    const [aria] = await ops.insertPlayers([{ name: 'Aria', qty: 1 }]);
    const [kept, bo] = await ops.upsertNothing([
      { name: 'Aria', qty: 9 },
      { name: 'Bo', qty: 2 },
    ]);
    expect(kept).toBe(aria);
    expect(await players()).toEqual([
      { id: String(aria), name: 'Aria', qty: 1 },
      { id: String(bo), name: 'Bo', qty: 2 },
    ]);
  });

  test('GIVEN a relational query with nested rows THEN a nested snowflake id fails the query with InvalidIdError instead of coming back rounded', async () => {
    // Drizzle builds nested rows as JSON; the driver parses JSON numbers as doubles.
    await ops.playerWithItems('Aria', ['bow']);
    await expect(ops.playersWithItems()).rejects.toThrow(InvalidIdError);
    await expect(ops.playersWithItems()).rejects.toThrow(
      /"players_items\.id" must be .* may already have lost precision/,
    );
  });
});
