import { markdownTable } from 'markdown-table';
import type { Candidate } from './candidates.js';
import { millions as m } from './measure.js';

/** One measured generator; `cpuShare`: the median share of a CPU the process had. */
export interface Result {
  readonly candidate: Candidate;
  readonly runs: readonly number[];
  readonly median: number;
  readonly cpuShare: number;
  readonly burst: number;
  readonly duplicates: number;
}

/** 4096 sequence values per ms: what one node of the default layout can issue per second. */
export const LAYOUT_CAP = 4_096_000;

/** The results as a Markdown table. */
export function table(results: readonly Result[]): string {
  const base = results.find((r) => r.candidate.key === 'simple-flakeid')!.median;
  const rows = results.map((r) => [
    r.candidate.name,
    m(r.median),
    r.runs.map(m).join(' / '),
    `${(r.median / base).toFixed(2)}x`,
    `${(r.median / LAYOUT_CAP).toFixed(2)}x`,
    `${Math.round(100 * r.cpuShare)}%`,
    `${(r.burst / 1e6).toFixed(0)}M`,
    r.duplicates === 0 ? '0' : `${r.duplicates} (${((100 * r.duplicates) / r.burst).toFixed(1)}%)`,
  ]);
  const head = [
    'generator',
    'ids/s (median)',
    'runs',
    'vs simple-flakeid',
    'vs 4.096M cap',
    'cpu',
    'burst',
    'duplicates',
  ];
  return markdownTable([head, ...rows], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] });
}

/** What the runs show, one line each, with the numbers behind it. */
export function summary(results: readonly Result[]): string[] {
  const by = (key: string) => results.find((r) => r.candidate.key === key)!;
  const sf = by('simple-flakeid').median;
  const ofCap = (key: string) =>
    `${(by(key).median / LAYOUT_CAP).toFixed(3)} x the ${m(LAYOUT_CAP)} ids/s a node of this layout may issue without running ahead of the clock, with ${Math.round(100 * by(key).cpuShare)}% of a CPU`;
  const dupes = results.filter((r) => r.candidate.snowkey && r.duplicates > 0);
  const busy = Math.min(...results.map((r) => r.cpuShare));
  return [
    ...(busy < 0.98
      ? [`note    some runs had only ${Math.round(100 * busy)}% of a CPU, so their ids/s are lower bounds`]
      : []),
    `cap     nextId() (wait): ${ofCap('snowkey-wait')}`,
    `cap     nextIds(10000): ${ofCap('snowkey-batch')}`,
    `dupes   snowkey: ${dupes.length === 0 ? 'no duplicate in any burst' : `duplicates from ${dupes.map((r) => r.candidate.name).join(', ')}`}`,
    `speed   with the clock cap lifted: nextId() ${(by('snowkey-code').median / sf).toFixed(2)}x, nextIds(10000) ${(
      by('snowkey-batch-code').median / sf
    ).toFixed(2)}x simple-flakeid`,
  ];
}
