import { describeEachDialect } from '@snowkey/test-harness';
import { beforeAll, expect, test } from 'vitest';
import {
  composeId,
  idRangeForTime,
  type Layout,
  layoutEndsAt,
  layouts,
  manualClock,
  Snowflake,
} from '../src/index.js';

// idRangeForTime on real databases: rows whose ids were issued 1 ms either side of a range's
// edges, read back with raw SQL through `WHERE id BETWEEN minId AND maxId`. Ids near 2^63-1
// come from the default layout at the end of its range, so the bounds pass through every
// driver and comparison at full 64-bit width.

interface Case {
  readonly name: string;
  readonly layout: Layout;
  readonly from: number;
  readonly to: number;
}

const sonyflakeUnitStart = layouts.sonyflake.epoch + 10 * 123_456_789; // a 10 ms unit's first ms
const cases: readonly Case[] = [
  {
    name: 'snowkey, 2026',
    layout: layouts.snowkey,
    from: Date.UTC(2026, 2, 1),
    to: Date.UTC(2026, 2, 31, 23, 59, 59, 999),
  },
  {
    name: 'snowkey, at the end of its range (ids near 2^63-1)',
    layout: layouts.snowkey,
    from: layoutEndsAt(layouts.snowkey) - 2,
    to: layoutEndsAt(layouts.snowkey) - 1,
  },
  { name: 'twitter, one ms', layout: layouts.twitter, from: Date.UTC(2026, 5, 1), to: Date.UTC(2026, 5, 1) },
  {
    name: 'sonyflake, whole 10 ms units',
    layout: layouts.sonyflake,
    from: sonyflakeUnitStart,
    to: sonyflakeUnitStart + 29,
  },
];

/** The smallest and the largest id of a layout at `ms`: every node field and the sequence at 0, then at their max. */
function extremes(layout: Layout, ms: number): bigint[] {
  const at = (high: boolean) => {
    const parts: Record<string, number> = { timestamp: ms, sequence: high ? layout.maxSequence : 0 };
    for (const f of layout.nodeFields) parts[f.name] = high ? f.max : 0;
    return composeId(parts as never, layout);
  };
  return [at(false), at(true)];
}

/** Ids issued by generators of the lowest and the highest node id, their clock set to each instant in turn. */
function issued(layout: Layout, instants: readonly number[]): Map<number, bigint[]> {
  const clock = manualClock(instants[0]! - 10 * layout.timeUnitMs);
  const nodeIds = [0, 2 ** layout.nodeBitsTotal - 1];
  const gens = nodeIds.map((nodeId) => new Snowflake({ layout, nodeId, clock: clock.now }));
  const out = new Map<number, bigint[]>();
  for (const ms of instants) {
    clock.set(ms);
    // a generator's first id may be an extreme itself (node 0, sequence 0): one row per id.
    out.set(ms, [...new Set([...gens.flatMap((g) => g.nextIds(3)), ...extremes(layout, ms)])]);
  }
  return out;
}

describeEachDialect('idRangeForTime through WHERE id BETWEEN', (ctx) => {
  beforeAll(async () => {
    await ctx.db.query(
      'CREATE TABLE events (id BIGINT NOT NULL PRIMARY KEY, issued_at VARCHAR(40) NOT NULL)',
    );
  });

  test.each(cases.map((c) => [c.name, c] as const))(
    'GIVEN %s and rows issued at from-1 ms, from, to and to+1 ms THEN BETWEEN minId AND maxId returns exactly those at from and to',
    async (_name, { layout, from, to }) => {
      await ctx.db.query('DELETE FROM events');
      const byInstant = issued(layout, [...new Set([from - 1, from, to, to + 1])]);
      for (const [ms, ids] of byInstant) {
        for (const id of ids) {
          await ctx.db.query('INSERT INTO events (id, issued_at) VALUES (?, ?)', [
            id,
            new Date(ms).toISOString(),
          ]);
        }
      }
      const { minId, maxId } = idRangeForTime(new Date(from), new Date(to), { layout });
      const rows = await ctx.db.query<{ id: string }>(
        'SELECT id FROM events WHERE id BETWEEN ? AND ? ORDER BY id',
        [minId, maxId],
      );
      const expected = [...new Set([from, to])]
        .flatMap((ms) => byInstant.get(ms)!)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map(String);
      expect(rows.map((r) => String(r.id))).toEqual(expected);
      const [total] = await ctx.db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM events');
      expect(Number(total!.n)).toBe([...byInstant.values()].flat().length);
    },
  );

  test('GIVEN the last instant of the default layout THEN maxId is 2^63-1 and BETWEEN reaches the row that holds it', async () => {
    await ctx.db.query('DELETE FROM events');
    const end = layoutEndsAt(layouts.snowkey);
    const top = (1n << 63n) - 1n;
    await ctx.db.query('INSERT INTO events (id, issued_at) VALUES (?, ?), (?, ?)', [
      top,
      'end',
      top - (1n << 22n),
      'end - 1 ms',
    ]);
    const { minId, maxId } = idRangeForTime(end, end, { layout: layouts.snowkey });
    expect(maxId).toBe(top);
    const rows = await ctx.db.query<{ id: string }>('SELECT id FROM events WHERE id BETWEEN ? AND ?', [
      minId,
      maxId,
    ]);
    expect(rows.map((r) => String(r.id))).toEqual([String(top)]);
  });
});
