import {
  type IdGenerator,
  SegmentAllocator,
  SegmentUnavailableError,
  Snowflake,
  type SqlClient,
} from '@snowkey/core';
import { median } from './measure.js';
import { slowClient } from './segment-setup.js';

let sink: unknown;

/** One row of the throughput table; `dry`: calls that found the buffers empty and awaited ready(). */
export interface ThroughputRow {
  readonly name: string;
  readonly runs: number[];
  readonly median: number;
  dry: number;
}

interface Source {
  readonly name: string;
  readonly perCall: number;
  readonly next: () => unknown;
  readonly ready?: () => Promise<void>;
}

/** Ids/s of `source` over `ms`, yielding every ~20 000 ids so a background fetch can land; waits count. */
async function run(source: Source, ms: number): Promise<{ idsPerSecond: number; dry: number }> {
  const calls = Math.max(1, Math.round(20_000 / source.perCall));
  let ids = 0;
  let dry = 0;
  const start = performance.now();
  let now = start;
  while (now < start + ms) {
    for (let i = 0; i < calls; i++) {
      try {
        sink = source.next();
        ids += source.perCall;
      } catch (err) {
        if (!(err instanceof SegmentUnavailableError) || !source.ready) throw err;
        dry++;
        await source.ready();
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    now = performance.now();
  }
  return { idsPerSecond: (ids * 1000) / (now - start), dry };
}

/** Snowflake and allocators (one 20 ms from its database), interleaved rounds after a warm-up of each. */
export async function measureThroughput(
  client: SqlClient,
  rounds: number,
  ms: number,
): Promise<ThroughputRow[]> {
  const allocator = async (tag: string, c: SqlClient = client) => {
    const a = new SegmentAllocator({ client: c, tag });
    await a.ready();
    return a;
  };
  const batch = (g: IdGenerator & { nextIds(n: number): bigint[] }) => () => g.nextIds(10_000);
  const [single, batched, slow] = await Promise.all([
    allocator('throughput-nextId'),
    allocator('throughput-nextIds'),
    allocator('throughput-slow', slowClient(client, 20)),
  ]);
  const snowflake = new Snowflake({ workerId: 1 });
  const snowflakeBatch = new Snowflake({ workerId: 2 });
  const sources: Source[] = [
    { name: 'Snowflake nextId()', perCall: 1, next: () => snowflake.nextId() },
    { name: 'Snowflake nextIds(10000)', perCall: 10_000, next: batch(snowflakeBatch) },
    {
      name: 'SegmentAllocator nextId()',
      perCall: 1,
      next: () => single.nextId(),
      ready: () => single.ready(),
    },
    {
      name: 'SegmentAllocator nextIds(10000)',
      perCall: 10_000,
      next: batch(batched),
      ready: () => batched.ready(10_000),
    },
    {
      name: 'SegmentAllocator nextId(), database +20 ms per statement',
      perCall: 1,
      next: () => slow.nextId(),
      ready: () => slow.ready(),
    },
  ];
  const rows = sources.map((s): ThroughputRow => ({ name: s.name, runs: [], median: 0, dry: 0 }));
  for (const s of sources) await run(s, 300);
  for (let round = 0; round < rounds; round++) {
    for (const [i, s] of sources.entries()) {
      const r = await run(s, ms);
      rows[i]!.runs.push(r.idsPerSecond);
      rows[i]!.dry += r.dry;
    }
  }
  for (const row of rows) (row as { median: number }).median = median(row.runs);
  await Promise.all([single.close(), batched.close(), slow.close()]);
  void sink;
  return rows;
}
