import { hrtime } from 'node:process';
import { SegmentAllocator, SegmentUnavailableError, Snowflake, type SqlClient } from '@snowkey/core';
import { quantileOfSorted as quantile } from './measure.js';
import { slowClient } from './segment-setup.js';

let sink: unknown;

/** One row of the latency table: every call's latency in ns (sorted), refills, calls that waited. */
export interface LatencyRow {
  readonly name: string;
  readonly samples: Float64Array;
  readonly refills: number;
  readonly dry: number;
  p(q: number): number;
}

const BATCH = 100;
const PAUSE_MS = 10;

/** ~10 000 ids/s of single timed calls; a call that finds the buffers empty awaits `ready()`, wait included. */
async function traffic(next: () => bigint, ready: () => Promise<void>, until: number) {
  const samples: number[] = [];
  let dry = 0;
  while (performance.now() < until) {
    for (let i = 0; i < BATCH; i++) {
      const t0 = hrtime.bigint();
      for (;;) {
        try {
          sink = next();
          break;
        } catch (err) {
          if (!(err instanceof SegmentUnavailableError)) throw err;
          dry++;
          await ready();
        }
      }
      samples.push(Number(hrtime.bigint() - t0));
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  return { samples: Float64Array.from(samples).sort(), dry };
}

/** Snowflake, a double-buffered allocator 20 ms from its database, and one without the double buffer, side by side. */
export async function measureLatency(client: SqlClient, seconds: number): Promise<LatencyRow[]> {
  const slowDouble = slowClient(client, 20);
  const slowSingle = slowClient(client, 20);
  const step = { step: 1000, maxStep: 1000 };
  const double = new SegmentAllocator({ client: slowDouble, tag: 'latency-double', ...step });
  const single = new SegmentAllocator({
    client: slowSingle,
    tag: 'latency-single',
    ...step,
    prefetchAt: 0.999,
  });
  await Promise.all([double.ready(), single.ready()]);
  const refillsBefore = [slowDouble.takes, slowSingle.takes];
  const snowflake = new Snowflake({ workerId: 1 });
  const until = performance.now() + seconds * 1000;
  const ready = async () => {};
  const allocator = (a: SegmentAllocator) => {
    const next = () => a.nextId();
    return traffic(next, () => a.ready(), until);
  };
  const [s, d, n] = await Promise.all([
    traffic(() => snowflake.nextId(), ready, until),
    allocator(double),
    allocator(single),
  ]);
  await Promise.all([double.close(), single.close()]);
  void sink;
  const row = (name: string, r: { samples: Float64Array; dry: number }, refills: number): LatencyRow => ({
    name,
    samples: r.samples,
    dry: r.dry,
    refills,
    p: (q) => quantile(r.samples, q),
  });
  return [
    row('Snowflake nextId()', s, 0),
    row('SegmentAllocator nextId(), double buffer (prefetchAt 0.1)', d, slowDouble.takes - refillsBefore[0]!),
    row(
      'SegmentAllocator nextId(), fetch when used up (prefetchAt 0.999)',
      n,
      slowSingle.takes - refillsBefore[1]!,
    ),
  ];
}

/** What `hrtime.bigint()` itself costs around an empty call: the floor under every p50. */
export function timerOverhead(): number {
  const samples = new Float64Array(100_000);
  for (let i = 0; i < samples.length; i++) {
    const t0 = hrtime.bigint();
    samples[i] = Number(hrtime.bigint() - t0);
  }
  return quantile(samples.sort(), 0.5);
}
