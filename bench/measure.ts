import { markdownTable } from 'markdown-table';

let sink: unknown;

/** One timed run: ids per second of wall time, and CPU time / wall time (below 1: the core was shared). */
export type Run = { readonly idsPerSecond: number; readonly cpuShare: number };

/** Runs `next` (`perCall` ids a call) for about `ms` of wall time, reading the clock every ~512 ids. */
export function timedRun(next: () => unknown, perCall: number, ms: number): Run {
  const chunk = Math.max(1, Math.round(512 / perCall));
  let calls = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now < start + ms) {
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

/** Something to time: `perCall` ids a call (default 1), `before` awaited ahead of every run. */
export type Timed = { next: () => unknown; perCall?: number; before?: () => Promise<unknown> };

/** A 200 ms warm-up of each, then `rounds` rounds of one run each, interleaved; the runs in `timed`'s order. */
export async function interleavedRuns(timed: readonly Timed[], rounds: number, ms: number): Promise<Run[][]> {
  const runs = timed.map((): Run[] => []);
  for (let round = -1; round < rounds; round++) {
    for (const [i, t] of timed.entries()) {
      await t.before?.();
      const run = timedRun(t.next, t.perCall ?? 1, round < 0 ? 200 : ms);
      if (round >= 0) runs[i]!.push(run);
      // Timers and background fetches get their turn between runs.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (round >= 0) console.error(`round ${round + 1}/${rounds} done`);
  }
  void sink;
  return runs;
}

/** The median of a few numbers. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The `q` quantile (0..1), interpolated between the nearest two. */
export function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo);
}

/** The value at quantile `q` (0..1) of sorted `values`, no interpolation (the nearest rank). */
export const quantileOfSorted = (sorted: ArrayLike<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Ids per second as `12.34M`. */
export const millions = (n: number) => `${(n / 1e6).toFixed(2)}M`;

/** A Markdown table; `align` one letter a column (`l`, `r`), by default the first left and the rest right. */
export function table(head: readonly string[], rows: readonly (readonly string[])[], align?: string): string {
  const a = (align ?? `l${'r'.repeat(head.length - 1)}`).split('') as ('l' | 'r')[];
  return markdownTable([head, ...rows], { align: a });
}

/** A monotonic clock 100 times faster than real time: the 4096-ids-per-ms cap never binds. */
export function fastClock(): () => number {
  const start = performance.timeOrigin + performance.now();
  const t0 = performance.now();
  return () => start + (performance.now() - t0) * 100;
}
