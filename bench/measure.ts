import type { Candidate } from './candidates.js';

let sink: unknown;

/** One timed run: ids per second of wall time, and the share of that time the process had a CPU. */
export interface Run {
  readonly idsPerSecond: number;
  /** CPU time / wall time: below 1 means other processes took the core (the machine is shared). */
  readonly cpuShare: number;
}

/** Runs `next` for about `ms` of wall time (the clock is read every few hundred ids). */
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

/** The median of a few numbers. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Draws `count` ids from a fresh instance as fast as it goes and counts the ids that repeat an
 * earlier one. 64-bit ids go into a BigUint64Array that is sorted (8 bytes an id); strings into a Set.
 */
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
