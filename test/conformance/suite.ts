import { idRangeForTime, layoutEndsAt, layouts, manualClock, Snowflake } from '@snowkey/core';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import type { Dialect, TestDatabase } from '../helpers/test-database.js';
import type { AdapterDriver, AdapterSession, ItemInput } from './adapter-driver.js';
import {
  CONFORMANCE_MIN_ID,
  CONFORMANCE_TAG,
  type GeneratorKind,
  type SessionGenerator,
  selectedGeneratorKinds,
  sessionGenerator,
} from './generator-kinds.js';
import { type RecordingGenerator, recordingGenerator } from './recording-generator.js';
import { clearConformanceTables, createConformanceTables } from './schema.js';

/** Sizes of the heavier cases; the defaults are what the issue asks for. */
export interface ConformanceOptions {
  /** Rows in the one bulk insert. Default 10 000. */
  bulkRows?: number;
  /** Rows each of the four concurrent generators inserts. Default 200. */
  rowsPerConcurrentGenerator?: number;
}

/**
 * The duplicate name's error as pg, MariaDB and SQLite word it (and Prisma after them), so a
 * failure of any other kind (a NULL key, a bad bind) cannot pass for the constraint violation.
 */
const UNIQUE_VIOLATION = /unique|duplicate/i;

/**
 * Values a caller may put in a key that core's one rule refuses: not a bigint in 1..2^63-1. A
 * Number is refused even when safe (ids are bigint end to end; above 2^53 it may be rounded).
 */
const REFUSED_CALLER_IDS: readonly [string, unknown][] = [
  ['0n', 0n],
  ['a negative bigint', -5n],
  ['2^63', 2n ** 63n],
  ['a safe Number', 42],
  ['a Number past 2^53', 2 ** 53 + 2],
  ['a decimal string', '123'],
  ['a fraction', 1.5],
];

/** The one message every adapter gives for a refused caller id, naming the column. */
const CALLER_ID_REFUSED = /"[A-Za-z_.[\]0-9]*id" must be a bigint in 1\.\.2\^63-1/;

const EDGE_IDS: readonly [string, bigint][] = [
  ['2^53+1', 2n ** 53n + 1n],
  ['2^63-1', 2n ** 63n - 1n],
];

/** Time ranges whose ids pass 2^53 (2026) and reach the last ms but one of the default layout (near 2^63-1). */
const TIME_RANGES: readonly [string, number, number][] = [
  ['March 2026', Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 31, 23, 59, 59, 999)],
  ['the end of the default layout', layoutEndsAt(layouts.snowkey) - 1, layoutEndsAt(layouts.snowkey) - 1],
];

/**
 * The adapter conformance suite: one `describe` per generator kind (`GENERATORS`: a Snowflake and a
 * segment allocator) and selected dialect (`DIALECTS`), each on a fresh database with the tables of
 * ./schema.ts, every result checked with raw SQL reads (`TestDatabase.query`), never through the
 * adapter under test.
 *
 * @example
 * // test/adapters/knex.conformance.test.ts
 * runConformance(knexDriver);
 */
export function runConformance(driver: AdapterDriver, options: ConformanceOptions = {}): void {
  for (const kind of selectedGeneratorKinds()) conformanceFor(kind, driver, options);
}

function conformanceFor(kind: GeneratorKind, driver: AdapterDriver, options: ConformanceOptions): void {
  const bulkRows = options.bulkRows ?? 10_000;
  const perGenerator = options.rowsPerConcurrentGenerator ?? 200;

  describeEachDialect(
    `${driver.name} conformance with a ${kind === 'snowflake' ? 'Snowflake' : 'segment allocator'}`,
    (ctx) => {
      const sessions: AdapterSession[] = [];
      const generators: SessionGenerator[] = [];
      const generatorFor = async (segment = {}) => {
        const made = await sessionGenerator(kind, driver, ctx.db, { segment });
        generators.push(made);
        return made;
      };
      const open = async (made?: SessionGenerator) => {
        const { generator, ready } = made ?? (await generatorFor());
        const session = await driver.open(ctx.db, generator);
        sessions.push(session);
        return { session, generator, ready };
      };

      beforeAll(() => createConformanceTables(ctx.db));
      beforeEach(() => clearConformanceTables(ctx.db));
      afterEach(async () => {
        await Promise.all(sessions.splice(0).map((s) => s.close()));
        await Promise.all(generators.splice(0).map((g) => g.close()));
      });

      test('GIVEN an item without an id WHEN inserted THEN the id on what the call returns came from the generator and is the stored id', async () => {
        const { session, generator } = await open();
        const id = await session.insertOne({ name: 'sword', qty: 3 });

        expect(typeof id).toBe('bigint');
        // The table has no default and no auto-increment: the row's id can only be the application's.
        expect(generator.issued.has(id)).toBe(true);
        expect(await items(ctx.db)).toEqual([{ id: String(id), name: 'sword', qty: 3 }]);
        if (kind === 'segment') {
          // The allocation table, read raw, had handed this id out: it is at or below the tag's max_id.
          const [row] = await ctx.db.query<{ max_id: string }>(
            'SELECT max_id FROM snowkey_segments WHERE tag = ?',
            [CONFORMANCE_TAG],
          );
          expect(id >= CONFORMANCE_MIN_ID && id <= BigInt(row!.max_id)).toBe(true);
        }
      });

      test('GIVEN single and bulk inserts in one process THEN every id is greater than the one before, in call order', async () => {
        const { session } = await open();
        const ids: bigint[] = [];
        for (let i = 0; i < 5; i++) ids.push(await session.insertOne(item(`a${i}`)));
        ids.push(...(await session.insertMany([0, 1, 2, 3, 4].map((i) => item(`b${i}`)))));
        ids.push(await session.insertOne(item('c0')));

        for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `id #${i}`).toBe(true);
        const stored = await items(ctx.db);
        expect(stored.map((r) => r.id)).toEqual(ids.map(String));
        expect(stored.map((r) => r.name)).toEqual([
          'a0',
          'a1',
          'a2',
          'a3',
          'a4',
          'b0',
          'b1',
          'b2',
          'b3',
          'b4',
          'c0',
        ]);
      });

      test('GIVEN items whose ids the caller set THEN those ids are stored and returned unchanged, and none is generated', async () => {
        const { session, generator } = await open();
        // Above any id a generator issues for decades, so the rows sort as listed below.
        const one = await session.insertOne({ id: 9_000_000_000_000_000_001n, name: 'explicit', qty: 1 });
        const many = await session.insertMany([
          { id: 42n, name: 'forty-two', qty: 1 },
          { name: 'generated', qty: 1 },
        ]);

        expect(one).toBe(9_000_000_000_000_000_001n);
        expect(many[0]).toBe(42n);
        expect(generator.issued.has(many[1]!)).toBe(true);
        expect(generator.issued.has(42n) || generator.issued.has(one)).toBe(false);
        expect(await items(ctx.db)).toEqual([
          { id: '42', name: 'forty-two', qty: 1 },
          { id: String(many[1]), name: 'generated', qty: 1 },
          { id: '9000000000000000001', name: 'explicit', qty: 1 },
        ]);
      });

      test.each(REFUSED_CALLER_IDS)(
        'GIVEN a caller id that is %s THEN one insert and a bulk insert are refused with InvalidArgumentError naming the column, and nothing is stored',
        async (_label, id) => {
          const { session, generator } = await open();
          const bad = { id, name: 'bad', qty: 1 } as unknown as ItemInput;
          const one = await session.insertOne(bad).then(
            () => undefined,
            (err: unknown) => err,
          );
          expect((one as Error | undefined)?.name).toBe('InvalidArgumentError');
          expect((one as Error).message).toMatch(CALLER_ID_REFUSED);
          expect(generator.issued.size).toBe(0);
          await expect(session.insertMany([item('good1'), bad, item('good2')])).rejects.toThrow(
            CALLER_ID_REFUSED,
          );
          expect(await items(ctx.db)).toEqual([]);
        },
      );

      test(`GIVEN a caller id of null in the NOT NULL key THEN it is ${driver.nullKey}`, async () => {
        const { session, generator } = await open();
        const attempt = session.insertOne({ id: null, name: 'null-id', qty: 1 } as unknown as ItemInput);
        if (driver.nullKey === 'generated') {
          const id = await attempt;
          expect(generator.issued.has(id)).toBe(true);
          expect(await items(ctx.db)).toEqual([{ id: String(id), name: 'null-id', qty: 1 }]);
        } else {
          await expect(attempt).rejects.toThrow(/null/i);
          expect(await items(ctx.db)).toEqual([]);
        }
      });

      test.each(EDGE_IDS)(
        'GIVEN the id %s THEN it is written and read back exactly, raw and through the adapter',
        async (_label, id) => {
          const { session } = await open();
          expect(await session.insertOne({ id, name: 'edge', qty: 1 })).toBe(id);

          expect(await ctx.db.query('SELECT id FROM sk_item WHERE name = ?', ['edge'])).toEqual([
            { id: String(id) },
          ]);
          expect(await session.findItem(id)).toEqual({ id, name: 'edge' });
          expect(await session.findItem(id - 1n)).toBeNull();
        },
      );

      test.each(TIME_RANGES)(
        'GIVEN rows 1 id either side of the ids of %s THEN the docs recipe for queries by time reads exactly the rows inside',
        async (_label, from, to) => {
          const { session } = await open();
          const { minId, maxId } = idRangeForTime(from, to, { layout: layouts.snowkey });
          const ids = [minId - 1n, minId, maxId, maxId + 1n].filter((id) => id > 0n && id < 2n ** 63n);
          for (const [i, id] of ids.entries()) {
            await ctx.db.query('INSERT INTO sk_item (id, name, qty) VALUES (?, ?, ?)', [id, `t${i}`, i]);
          }
          expect(await session.findItemIdsBetween(minId, maxId)).toEqual([minId, maxId]);
        },
      );

      test(`GIVEN ${bulkRows} items in one bulk insert THEN each stored row has the id returned for it`, async () => {
        const { session, generator, ready } = await open();
        await ready(bulkRows); // a segment allocator hands out a batch only from memory
        const input = Array.from({ length: bulkRows }, (_, i) => item(`bulk${i}`));
        const ids = await session.insertMany(input);

        expect(ids).toHaveLength(bulkRows);
        expect(new Set(ids).size).toBe(bulkRows);
        expect(ids.every((id) => generator.issued.has(id))).toBe(true);
        const stored = await ctx.db.query<{ id: string; name: string }>('SELECT id, name FROM sk_item');
        const storedIdByName = new Map(stored.map((r) => [r.name, r.id]));
        expect(stored).toHaveLength(bulkRows);
        expect(input.map((it) => storedIdByName.get(it.name))).toEqual(ids.map(String));
      });

      test('GIVEN a parent with three children written through the cascade THEN every row has a generated id and each child points at the parent', async () => {
        const { session, generator } = await open();
        const { parentId, childIds } = await session.insertParentWithChildren('guild', ['x', 'y', 'z']);

        expect(childIds).toHaveLength(3);
        for (const id of [parentId, ...childIds]) expect(generator.issued.has(id)).toBe(true);
        expect(await ctx.db.query('SELECT id, name FROM sk_parent')).toEqual([
          { id: String(parentId), name: 'guild' },
        ]);
        const children = await ctx.db.query<{ id: string; parent_id: string; label: string }>(
          'SELECT id, parent_id, label FROM sk_child ORDER BY label',
        );
        expect(children).toEqual(
          ['x', 'y', 'z'].map((label, i) => ({
            id: String(childIds[i]),
            parent_id: String(parentId),
            label,
          })),
        );
      });

      if (kind === 'snowflake') {
        test('GIVEN four generators with distinct node ids on one clock that stands still, inserting concurrently into one table THEN every insert succeeds and no id repeats', async () => {
          // One frozen clock: the four generators issue in the same millisecond, so only the node
          // bits keep their ids apart.
          const clock = manualClock(Date.UTC(2026, 0, 1));
          const snowflakes = [1, 2, 3, 4].map((workerId) => new Snowflake({ workerId, clock: clock.now }));
          const workers = await Promise.all(
            snowflakes.map((s) =>
              open({ generator: recordingGenerator(s), ready: async () => {}, close: async () => {} }),
            ),
          );
          const returned = await runWorkers(ctx.dialect, workers, perGenerator);
          const all = returned.flat().map(String).sort();
          expect(all).toHaveLength(4 * perGenerator);
          // Each worker's rows carry its own node id, and the workers did issue the same
          // (timestamp, sequence) pairs: the node bits, not luck, kept the ids apart.
          const pairs = returned.map((ids, w) =>
            ids.map((id) => {
              const { workerId, timestamp, sequence } = snowflakes[w]!.decode(id);
              expect(workerId).toBe(w + 1);
              return `${timestamp}:${sequence}`;
            }),
          );
          expect(pairs[1]!.filter((pair) => pairs[0]!.includes(pair))).not.toHaveLength(0);
          expect(new Set(all).size).toBe(all.length);
          const stored = await ctx.db.query<{ id: string }>('SELECT id FROM sk_item');
          expect(stored.map((r) => r.id).sort()).toEqual(all);
        });
      } else {
        test('GIVEN four segment allocators of one tag, each on its own connection, inserting concurrently into one table THEN every insert succeeds, no id repeats, AND their segments interleave', async () => {
          // A small fixed step: each allocator takes many segments while the others take theirs.
          const made = await Promise.all([0, 1, 2, 3].map(() => generatorFor({ step: 25, maxStep: 25 })));
          const workers = await Promise.all(made.map((m) => open(m)));
          const returned = await runWorkers(ctx.dialect, workers, perGenerator);
          const all = returned.flat().map(String).sort();
          expect(all).toHaveLength(4 * perGenerator);
          expect(new Set(all).size).toBe(all.length);
          const stored = await ctx.db.query<{ id: string }>('SELECT id FROM sk_item');
          expect(stored.map((r) => r.id).sort()).toEqual(all);
          // They drew from the shared counter at the same time, not one after the other: some
          // worker's lowest id is below another worker's highest, and above its lowest.
          const spans = returned.map(span);
          const overlapping = spans.some(([lo0, hi0], i) =>
            spans.some(([lo1], j) => i !== j && lo0 < lo1 && lo1 < hi0),
          );
          expect(overlapping).toBe(true);
        });
      }

      test('GIVEN a bulk insert in which one row violates a constraint THEN it fails and none of its rows is stored', async () => {
        const { session } = await open();
        await session.insertOne(item('taken'));

        await expect(session.insertMany([item('new1'), item('taken'), item('new2')])).rejects.toThrow(
          UNIQUE_VIOLATION,
        );
        expect((await items(ctx.db)).map((r) => r.name)).toEqual(['taken']);
      });

      test('GIVEN a transaction whose third insert violates a constraint THEN it fails and none of its rows is stored', async () => {
        const { session } = await open();
        await session.insertOne(item('taken'));

        await expect(session.insertInTransaction([item('t1'), item('t2'), item('taken')])).rejects.toThrow(
          UNIQUE_VIOLATION,
        );
        expect((await items(ctx.db)).map((r) => r.name)).toEqual(['taken']);
      });

      test('GIVEN a transaction that succeeds THEN all its rows are stored with the ids it returned', async () => {
        const { session, generator } = await open();
        const ids = await session.insertInTransaction([
          item('t1'),
          item('t2'),
          { id: 7n, name: 't3', qty: 1 },
        ]);

        expect(generator.issued.has(ids[0]!) && generator.issued.has(ids[1]!)).toBe(true);
        expect(ids[2]).toBe(7n);
        const stored = await ctx.db.query<{ id: string; name: string }>(
          'SELECT id, name FROM sk_item ORDER BY name',
        );
        expect(stored).toEqual(['t1', 't2', 't3'].map((name, i) => ({ id: String(ids[i]), name })));
      });
    },
    { label: `${driver.name}_${kind}` },
  );
}

interface Worker {
  readonly session: AdapterSession;
  readonly generator: RecordingGenerator;
  ready(count: number): Promise<void>;
}

/** Runs the workers' inserts concurrently (round robin on SQLite, see below); each worker's ids in order. */
function runWorkers(dialect: Dialect, workers: readonly Worker[], rows: number): Promise<bigint[][]> {
  const work = workers.map((worker, w) => workerSteps(worker, w, rows));
  // SQLite has one writer per file. Within one process a second connection that waits for the
  // lock blocks the event loop, so the holder can never commit: the four run interleaved, one
  // statement at a time, instead of overlapping.
  return dialect === 'sqlite' ? roundRobin(work) : Promise.all(work.map((steps) => runAll(steps)));
}

/**
 * A worker's inserts as steps: half its rows in one bulk insert, the rest one by one. Each step
 * first makes sure its ids are in memory (a segment allocator's `ready(n)`; nothing for a
 * Snowflake), then resolves to the ids it inserted.
 */
function workerSteps({ session, ready }: Worker, w: number, rows: number): (() => Promise<bigint[]>)[] {
  const bulk = Math.floor(rows / 2);
  const steps = [
    async () => {
      await ready(bulk);
      return session.insertMany(Array.from({ length: bulk }, (_, i) => item(`w${w}-bulk${i}`)));
    },
  ];
  for (let i = bulk; i < rows; i++) {
    steps.push(async () => {
      await ready(1);
      return [await session.insertOne(item(`w${w}-one${i}`))];
    });
  }
  return steps;
}

/** The lowest and highest of `ids`. */
function span(ids: readonly bigint[]): readonly [bigint, bigint] {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : 1));
  return [sorted[0]!, sorted.at(-1)!];
}

/** Runs one worker's steps in order, each awaited; the workers themselves overlap. */
async function runAll(steps: (() => Promise<bigint[]>)[]): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (const step of steps) ids.push(...(await step()));
  return ids;
}

/** Runs the workers' steps alternately, worker 1 step 1, worker 2 step 1, ..., one at a time. */
async function roundRobin(work: (() => Promise<bigint[]>)[][]): Promise<bigint[][]> {
  const ids = work.map((): bigint[] => []);
  for (let step = 0; work.some((steps) => step < steps.length); step++) {
    for (const [w, steps] of work.entries()) {
      const next = steps[step];
      if (next) ids[w]!.push(...(await next()));
    }
  }
  return ids;
}

function item(name: string): ItemInput {
  return { name, qty: 1 };
}

/** Every sk_item row, by id, read with raw SQL. */
function items(db: TestDatabase) {
  return db.query<{ id: string; name: string; qty: number }>('SELECT id, name, qty FROM sk_item ORDER BY id');
}
