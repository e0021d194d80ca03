import { manualClock, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { recordingGenerator } from '@snowkey/test-harness/recording-generator';
import { CamelCasePlugin, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { readStoredIds, type SnowkeyPlugin, snowkeyPlugin, UnfillableInsertError } from '../src/index.js';
import { openKysely } from './open-kysely.js';
import { clearTables, createTables, type Game } from './schema.js';

const tables = { players: 'id', items: ['id', 'serial_no'], tokens: 'id' } as const;

describeEachDialect('kysely insert paths', (ctx) => {
  let db: Kysely<Game>;
  let sk: SnowkeyPlugin<typeof tables>;
  // The clock moves 1 ms per read, so ids never wait on the wall clock.
  const generator = recordingGenerator(
    new Snowflake({ workerId: 3, clock: manualClock(Date.UTC(2026, 0, 1), 1).now }),
  );
  const players = () =>
    ctx.db.query<{ id: string; name: string; level: number }>(
      'SELECT id, name, level FROM players ORDER BY id',
    );
  const hasReturning = () => ctx.dialect !== 'mysql';

  beforeAll(async () => {
    await createTables(ctx.db);
    sk = snowkeyPlugin({ generator, tables });
    db = openKysely<Game>(ctx.db, { plugins: [sk] });
  });
  afterAll(async () => {
    await db?.destroy();
  });
  beforeEach(() => clearTables(ctx.db));

  test('GIVEN one row without an id WHEN inserted THEN it is stored under an id from the generator', async () => {
    const result = await db.insertInto('players').values({ name: 'Aria' }).executeTakeFirstOrThrow();
    const [row] = await players();
    expect(generator.issued.has(BigInt(row!.id))).toBe(true);
    expect(row).toMatchObject({ name: 'Aria', level: 1 });
    expect(result.numInsertedOrUpdatedRows).toBe(1n);
  });

  test('GIVEN rows that leave the id out, set it, or set it to null THEN missing and null ids are generated, the set one kept', async () => {
    const rows = [
      { name: 'generated' },
      { id: 42n, name: 'kept' },
      { id: null as unknown as bigint, name: 'from-null' },
    ];
    await db.insertInto('players').values(rows).execute();
    const stored = await players();
    expect(stored.map((r) => r.name)).toEqual(['kept', 'generated', 'from-null']);
    expect(stored[0]!.id).toBe('42');
    expect(generator.issued.has(BigInt(stored[1]!.id)) && generator.issued.has(BigInt(stored[2]!.id))).toBe(
      true,
    );
    expect(BigInt(stored[1]!.id) < BigInt(stored[2]!.id)).toBe(true); // input order
    expect(rows[0]).toEqual({ name: 'generated' }); // the caller's objects are not touched
  });

  test('GIVEN a table with two snowflake columns THEN both are filled, and a set one is kept', async () => {
    await db
      .insertInto('items')
      .values([{ label: 'sword' }, { label: 'shield', serial_no: 7n }])
      .execute();
    const stored = await ctx.db.query<{ id: string; serial_no: string; label: string }>(
      'SELECT id, serial_no, label FROM items ORDER BY label',
    );
    expect(stored.map((r) => r.serial_no === '7')).toEqual([true, false]);
    expect(new Set(stored.flatMap((r) => [r.id, r.serial_no])).size).toBe(4);
  });

  test('GIVEN withIds THEN the ids are known before the INSERT and are the ones stored, on every dialect', async () => {
    const rows = sk.withIds('players', [{ name: 'a' }, { name: 'b', id: 5n }]);
    expect(await players()).toEqual([]);
    await db.insertInto('players').values(rows).execute();
    expect((await players()).map((r) => [r.name, r.id])).toEqual([
      ['b', '5'],
      ['a', String(rows[0]!.id)],
    ]);
  });

  test('GIVEN defaultValues() THEN the row gets its id and the other columns their defaults', async () => {
    await db.insertInto('tokens').defaultValues().execute();
    const stored = await ctx.db.query<{ id: string; uses: number }>('SELECT id, uses FROM tokens');
    expect(stored).toHaveLength(1);
    expect(generator.issued.has(BigInt(stored[0]!.id))).toBe(true);
    expect(stored[0]!.uses).toBe(0);
  });

  test('GIVEN a table the plugin was not told about THEN its inserts are left alone', async () => {
    await db.insertInto('audit').values({ note: 'hello' }).execute();
    // The database numbered the row itself (the harness reads SQLite's rowid key as a string).
    const rows = await ctx.db.query<{ seq: unknown; note: string }>('SELECT seq, note FROM audit');
    expect(rows.map((r) => ({ seq: String(r.seq), note: r.note }))).toEqual([{ seq: '1', note: 'hello' }]);
  });

  test('GIVEN an INSERT ... SELECT that leaves the snowflake column out THEN it is refused before it runs', async () => {
    await ctx.db.query("INSERT INTO staging (id, name) VALUES (11, 'copied')");
    const attempt = db
      .insertInto('players')
      .columns(['name'])
      .expression(db.selectFrom('staging').select('name'))
      .execute();
    await expect(attempt).rejects.toBeInstanceOf(UnfillableInsertError);
    await expect(attempt).rejects.toMatchObject({ table: 'players', column: 'id' });
    expect(await players()).toEqual([]);
  });

  test('GIVEN an INSERT ... SELECT that selects the keys THEN the rows are copied with those keys', async () => {
    await ctx.db.query("INSERT INTO staging (id, name) VALUES (9007199254740993, 'copied')");
    await db
      .insertInto('players')
      .columns(['id', 'name'])
      .expression(db.selectFrom('staging').select(['id', 'name']))
      .execute();
    expect(await players()).toEqual([{ id: '9007199254740993', name: 'copied', level: 1 }]);
  });

  test('GIVEN an SQL expression in the id column THEN it is refused, since the rule for ids cannot check it', async () => {
    const attempt = db.insertInto('players').values({ id: sql<bigint>`1 + 1`, name: 'expr' }).execute();
    await expect(attempt).rejects.toThrow(/"players\.id" holds an SQL expression/);
    expect(await players()).toEqual([]);
  });

  test('GIVEN a transaction that fails after an insert THEN the insert is rolled back', async () => {
    const attempt = db.transaction().execute(async (trx) => {
      await trx.insertInto('players').values({ name: 'kept?' }).execute();
      await trx.insertInto('players').values({ name: 'kept?' }).execute(); // duplicate name
    });
    await expect(attempt).rejects.toThrow(/unique|duplicate/i);
    expect(await players()).toEqual([]);
  });

  test('GIVEN an upsert that updates an existing row THEN the stored id is kept and the id reported is the stored one', async () => {
    const [original] = sk.withIds('players', [{ name: 'Aria', level: 1 }]);
    await db.insertInto('players').values(original!).execute();
    const rows = [
      { name: 'Aria', level: 5 },
      { name: 'Bo', level: 2 },
    ];
    let reported: bigint[];
    if (hasReturning()) {
      const out = await db
        .insertInto('players')
        .values(rows)
        .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ level: eb.ref('excluded.level') })))
        .returning(['id', 'name'])
        .execute();
      reported = rows.map((r) => out.find((o) => o.name === r.name)!.id);
    } else {
      reported = await db.transaction().execute(async (trx) => {
        const filled = sk.withIds('players', rows);
        await trx
          .insertInto('players')
          .values(filled)
          .onDuplicateKeyUpdate((eb) => ({ level: eb.fn('values', [eb.ref('level')]) }))
          .execute();
        return (await readStoredIds(trx, 'players', filled, { by: ['name'], ids: ['id'] })).map((r) => r.id);
      });
    }
    expect(reported[0]).toBe(original!.id);
    expect(await players()).toEqual([
      { id: String(original!.id), name: 'Aria', level: 5 },
      { id: String(reported[1]), name: 'Bo', level: 2 },
    ]);
  });

  test('GIVEN an insert that ignores conflicts THEN readStoredIds reports the existing row id for the ignored row', async () => {
    const [original] = sk.withIds('players', [{ name: 'Aria' }]);
    await db.insertInto('players').values(original!).execute();
    const filled = sk.withIds('players', [{ name: 'Aria' }, { name: 'Cy' }]);
    const stored = await db.transaction().execute(async (trx) => {
      const insert = trx.insertInto('players').values(filled);
      await (ctx.dialect === 'mysql' ? insert.ignore() : insert.onConflict((oc) => oc.doNothing())).execute();
      return readStoredIds(trx, 'players', filled, { by: ['name'], ids: ['id'] });
    });
    expect(stored.map((r) => r.id)).toEqual([original!.id, filled[1]!.id]);
    expect(filled[0]!.id).not.toBe(original!.id);
  });

  test('GIVEN an upsert whose row cannot be found by its key afterwards THEN readStoredIds throws UpsertReadBackError', async () => {
    await expect(
      readStoredIds(db, 'players', [{ name: 'nobody', id: 1n }], { by: ['name'], ids: ['id'] }),
    ).rejects.toMatchObject({ name: 'UpsertReadBackError', rowIndex: 0, matches: 0 });
  });

  test('GIVEN CamelCasePlugin after the snowkey plugin THEN columns are named as in the TypeScript schema', async () => {
    interface CamelGame {
      items: { id: bigint; serialNo: bigint; label: string };
    }
    const camelSk = snowkeyPlugin({ generator, tables: { items: ['id', 'serialNo'] } });
    const camel = openKysely<CamelGame>(ctx.db, { plugins: [camelSk, new CamelCasePlugin()] });
    try {
      await camel
        .insertInto('items')
        .values({ label: 'bow' } as CamelGame['items'])
        .execute();
      const [row] = await camel.selectFrom('items').select(['id', 'serialNo', 'label']).execute();
      expect(generator.issued.has(row!.id) && generator.issued.has(row!.serialNo)).toBe(true);
    } finally {
      await camel.destroy();
    }
  });

  if (ctx.dialect === 'postgres') {
    test('GIVEN an INSERT inside a WITH query (PostgreSQL) THEN it is filled too', async () => {
      const out = await db
        .with('created', (w) => w.insertInto('players').values({ name: 'cte' }).returning('id'))
        .selectFrom('created')
        .select('id')
        .execute();
      expect(await players()).toEqual([{ id: String(out[0]!.id), name: 'cte', level: 1 }]);
      expect(generator.issued.has(out[0]!.id)).toBe(true);
    });
  } else {
    test('GIVEN replaceInto (MySQL, SQLite) THEN the row gets an id', async () => {
      await db.replaceInto('players').values({ name: 'replaced' }).execute();
      const [row] = await players();
      expect(generator.issued.has(BigInt(row!.id))).toBe(true);
    });
  }
});
