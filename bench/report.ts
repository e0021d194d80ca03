import type { Candidate } from './candidates.js';

/** One measured generator. */
export interface Result {
  readonly candidate: Candidate;
  readonly runs: readonly number[];
  readonly median: number;
  /** Median share of a CPU the process had during the runs. */
  readonly cpuShare: number;
  readonly burst: number;
  readonly duplicates: number;
}

/** 4096 sequence values per ms: what one node of the default layout can issue per second. */
export const LAYOUT_CAP = 4_096_000;

const m = (ids: number) => `${(ids / 1e6).toFixed(2)}M`;

/** The results as a Markdown table (it reads as plain text too). */
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
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/** The issue's goals, each PASS or MISS with the numbers behind it. */
export function goals(results: readonly Result[]): string[] {
  const by = (key: string) => results.find((r) => r.candidate.key === key)!;
  const sf = by('simple-flakeid').median;
  const wait = by('snowkey-wait').median;
  const batch = by('snowkey-batch').median;
  const waitCpu = by('snowkey-wait').cpuShare;
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const capNote = (needed: number) =>
    needed > LAYOUT_CAP
      ? `; it needs ${m(needed)}/s, above the ${m(LAYOUT_CAP)}/s a node of this layout may issue in wait mode`
      : '';
  const dupes = results.filter((r) => r.candidate.snowkey && r.duplicates > 0);
  const busy = Math.min(...results.map((r) => r.cpuShare));
  return [
    ...(busy < 0.98
      ? [
          `note  the machine was busy: some runs had only ${Math.round(100 * busy)}% of a CPU, so their ids/s are lower bounds`,
        ]
      : []),
    `${verdict(wait >= 2.5 * sf)}  default nextId() >= 2.5x simple-flakeid: ${(wait / sf).toFixed(2)}x${capNote(2.5 * sf)}`,
    `${verdict(batch >= 5 * sf)}  nextIds(10000) >= 5x simple-flakeid: ${(batch / sf).toFixed(2)}x${capNote(5 * sf)}`,
    `${verdict(wait >= 0.97 * LAYOUT_CAP)}  wait mode >= 0.97 x 4.096M ids/s: ${(wait / LAYOUT_CAP).toFixed(3)} x 4.096M with ${Math.round(
      100 * waitCpu,
    )}% of a CPU (${(wait / waitCpu / LAYOUT_CAP).toFixed(3)} per CPU-second; a wait-mode generator cannot make up a millisecond it was not scheduled in)`,
    `${verdict(dupes.length === 0)}  zero duplicates from snowkey: ${
      dupes.length === 0 ? 'none in any snowkey burst' : dupes.map((r) => r.candidate.name).join(', ')
    }`,
    `info  code speed without the clock cap: nextId() ${(by('snowkey-code').median / sf).toFixed(2)}x, nextIds(10000) ${(
      by('snowkey-batch-code').median / sf
    ).toFixed(2)}x simple-flakeid`,
  ];
}
