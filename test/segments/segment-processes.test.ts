import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, type DroppableTestDatabase, describeEachDialect } from '../helpers/databases.js';
import { type JsonChild, startJsonChild } from '../helpers/json-child.js';
import { describeRedis } from '../helpers/redis-server.js';
import type { TestDatabase } from '../helpers/test-database.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'segment-child.ts');
const PROCESSES = 8;
const IDS_PER_PROCESS = 100_000;
const STEP = 1000;

/**
 * The multi-process cases, for one store: `db` holds the shared `seg_ids` table (and, for the SQL
 * store, the allocation table); `counter()` reads the tag's counter raw from the store.
 */
function processCases(
  db: () => TestDatabase,
  env: () => Record<string, string>,
  counter: () => Promise<bigint>,
) {
  const running: JsonChild[] = [];
  const start = (settings: Record<string, string | number>) => {
    const child = startJsonChild(CHILD, {
      SEG_DIALECT: db().dialect,
      SEG_URL: db().filename ?? db().url,
      SEG_STEP: STEP,
      SEG_MAX_STEP: STEP,
      ...env(),
      ...settings,
    });
    running.push(child);
    return child;
  };
  afterEach(async () => {
    for (const c of running.splice(0)) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await c.exited;
    }
  });
  const ids = async () =>
    (await db().query<{ id: string }>('SELECT id FROM seg_ids')).map((r) => BigInt(r.id));

  test(`GIVEN ${PROCESSES} processes taking ${IDS_PER_PROCESS} ids each from one tag (step ${STEP}) THEN all ${PROCESSES * IDS_PER_PROCESS} insert into one primary key, every id is at most the counter, AND no range was lost beyond the buffers left at exit`, async () => {
    await db().query('CREATE TABLE seg_ids (id BIGINT NOT NULL PRIMARY KEY)');
    const children = Array.from({ length: PROCESSES }, () =>
      start({ SEG_COUNT: IDS_PER_PROCESS, SEG_WAIT_FOR_GO: 1 }),
    );
    // All are ready (the table and row exist, each holds its first segment) before any takes ids.
    await Promise.all(children.map((c) => c.waitFor((e) => e.event === 'ready')));
    for (const c of children) c.go();
    const ends = await Promise.all(children.map((c) => c.exited));
    for (const end of ends) expect(end, end.stderr).toMatchObject({ code: 0 });

    const all = await ids();
    expect(all).toHaveLength(PROCESSES * IDS_PER_PROCESS); // the primary key refused any repeat
    const top = await counter();
    expect(all.every((id) => id >= 1n && id <= top)).toBe(true);
    // Each process leaves at most its current segment's rest and one prefetched segment unused.
    expect(Number(top) - all.length).toBeLessThanOrEqual(PROCESSES * 2 * STEP);
  });

  test('GIVEN a process killed with SIGKILL mid-segment AND another started at once THEN the new one starts above every id the dead one took: gaps, never repeats', async () => {
    await db().query('DROP TABLE IF EXISTS seg_ids');
    await db().query('CREATE TABLE seg_ids (id BIGINT NOT NULL PRIMARY KEY)');
    const before = await counter();
    const first = start({ SEG_MODE: 'loop' });
    await first.waitFor((e) => e.event === 'inserted' && Number(e.total) >= 6000);
    first.process.kill('SIGKILL');
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    const deadTop = await counter(); // nothing above this was ever handed to the dead process

    const second = start({ SEG_COUNT: 20_000 });
    const end = await second.exited;
    expect(end, end.stderr).toMatchObject({ code: 0 });
    const done = second.events.find((e) => e.event === 'done')!;
    const all = await ids();
    const newFirst = BigInt(String(done.firstId));
    const dead = all.filter((id) => id < newFirst);
    const heir = all.filter((id) => id >= newFirst);
    expect(dead.length).toBeGreaterThanOrEqual(6000);
    expect(dead.every((id) => id > before && id <= deadTop)).toBe(true);
    expect(heir).toHaveLength(20_000);
    expect(newFirst > deadTop).toBe(true);
  });
}

describeEachDialect('segment allocator across processes', (ctx) => {
  processCases(
    () => ctx.db,
    () => ({}),
    async () => {
      const [row] = await ctx.db.query<{ max_id: string }>(
        "SELECT max_id FROM snowkey_segments WHERE tag = 'proc'",
      );
      return BigInt(row?.max_id ?? 0);
    },
  );
});

describeRedis('segment allocator across processes', (rctx) => {
  // The ids go into a SQLite table with a primary key; the counter is in Redis.
  let sink: DroppableTestDatabase | undefined;
  let redis: { get(key: string): Promise<string | null>; quit(): Promise<unknown> } | undefined;
  beforeAll(async () => {
    sink = await createTestDatabase('sqlite', 'segment_redis_processes');
    redis = await createClient({ url: rctx.url }).connect();
  });
  afterAll(async () => {
    await redis?.quit();
    await sink?.drop();
  });
  processCases(
    () => sink!,
    () => ({ SEG_STORE: 'redis', SEG_REDIS_URL: rctx.url, SEG_KEY_PREFIX: rctx.keyPrefix }),
    async () => BigInt((await redis!.get(`${rctx.keyPrefix}proc`)) ?? 0),
  );
});
