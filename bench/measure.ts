import { layouts, Snowflake } from '@snowkey/core';
import type { Candidate } from './candidates.js';

let sink: unknown;

/** One timed run: ids per second of wall time, and CPU time / wall time (below 1: the core was shared). */
export interface Run {
  readonly idsPerSecond: number;
  readonly cpuShare: number;
}

/** Runs `next` for about `ms` of wall time (the clock read every few hundred ids). */
export function timedRun(next: () => unknown, perCall: number, ms: number): Run {
  const chunk = Math.max(1, Math.round(512 / perCall));
  let calls = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + ms;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < chunk; i++) sink = next();
    calls += chunk;
    now = performance.now();
  }
  const used = process.cpuUsage(cpu);
  return {
    idsPerSecond: (calls * perCall * 1000) / (now - start),
    cpuShare: (used.user + used.system) / 1000 / (now - start),
  };
}

export { median } from './insert/stats.js';

/** The value at quantile `q` (0..1) of sorted `values`, no interpolation. */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Ids per second as `12.34M`. */
export const millions = (n: number) => `${(n / 1e6).toFixed(2)}M`;

/** Real ids: a default-layout generator whose clock moves 1 ms every 50 ids. */
export function steadyGenerator(): Snowflake {
  let ms = Date.UTC(2026, 10, 1);
  let calls = 0;
  return new Snowflake({
    layout: layouts.default,
    workerId: 7,
    clock: () => (calls++ % 50 === 0 ? ++ms : ms),
  });
}

/** A monotonic clock 100 times faster than real time: the 4096-ids-per-ms cap never binds. */
export function fastClock(): () => number {
  const start = performance.timeOrigin + performance.now();
  const t0 = performance.now();
  return () => start + (performance.now() - t0) * 100;
}

/** Duplicates among `count` ids drawn from a fresh instance as fast as it goes (sorted, or a Set for strings). */
export function burstDuplicates(candidate: Candidate, count: number): number {
  const next = candidate.create();
  if (candidate.kind === 'string') {
    const seen = new Set<unknown>();
    for (let i = 0; i < count; i++) seen.add(next());
    return count - seen.size;
  }
  const ids = new BigUint64Array(count);
  if (candidate.kind === 'bigint[]') {
    for (let i = 0; i < count; ) {
      for (const id of next() as bigint[]) {
        if (i < count) ids[i++] = id;
      }
    }
  } else if (candidate.kind === 'number-or-bigint') {
    for (let i = 0; i < count; i++) ids[i] = BigInt(next() as number | bigint);
  } else if (candidate.kind === 'buffer') {
    for (let i = 0; i < count; i++) ids[i] = (next() as Buffer).readBigUInt64BE(0);
  } else {
    for (let i = 0; i < count; i++) ids[i] = next() as bigint;
  }
  ids.sort();
  let dup = 0;
  for (let i = 1; i < count; i++) if (ids[i] === ids[i - 1]) dup++;
  return dup;
}

/** Keeps the last value alive so the engine cannot drop the work. */
export function consumed(): unknown {
  return sink;
}
