// `pnpm bench`: ids/s of each generator (median of 3 interleaved runs), then a burst checked for duplicates.
import { type Candidate, candidates } from './candidates.js';
import { interleavedRuns, millions as m, median, table } from './measure.js';

const RUN_MS = Number(process.env.BENCH_RUN_MS ?? 1000);
const ROUNDS = 3;
const BURST_64 = 2_000_000; // big enough that a generator without a per-ms guard (sapphire) repeats
const BURST_UUID = 1_000_000; // UUIDs go into a Set of strings
const CAP = 4_096_000; // 4096 sequence values per ms: what one node of the default layout can issue per second

/** Duplicates among `count` ids drawn from a fresh instance as fast as it goes (sorted, or a Set for strings). */
function burstDuplicates(candidate: Candidate, count: number): number {
  const next = candidate.create();
  if (candidate.kind === 'string') {
    const seen = new Set<unknown>();
    for (let i = 0; i < count; i++) seen.add(next());
    return count - seen.size;
  }
  const ids = new BigUint64Array(count);
  const asBigint =
    {
      'number-or-bigint': (id: unknown) => BigInt(id as number | bigint),
      buffer: (id: unknown) => (id as Buffer).readBigUInt64BE(0),
    }[candidate.kind as string] ?? ((id: unknown) => id as bigint);
  for (let i = 0; i < count; ) {
    const got = next();
    for (const id of candidate.kind === 'bigint[]' ? (got as bigint[]) : [got])
      if (i < count) ids[i++] = asBigint(id);
  }
  ids.sort();
  let dup = 0;
  for (let i = 1; i < count; i++) if (ids[i] === ids[i - 1]) dup++;
  return dup;
}

console.log(
  `snowkey generation benchmark: ${ROUNDS} runs of ${RUN_MS} ms per generator; bursts of ${BURST_64 / 1e6}M (64-bit) / ${BURST_UUID / 1e6}M (UUID)\n`,
);
const byName = new Map(candidates.map((c) => [c.name, c]));
const runs = interleavedRuns(
  new Map(candidates.map((c) => [c.name, c.create()])),
  (name) => byName.get(name)!.perCall,
  ROUNDS,
  RUN_MS,
);
const rate = (c: Candidate) => median(runs.get(c.name)!.map((r) => r.idsPerSecond));
const base = rate(byName.get('simple-flakeid NextBigId()')!);
const rows = candidates.map((c) => {
  const burst = c.kind === 'string' ? BURST_UUID : BURST_64;
  const dup = burstDuplicates(c, burst);
  return [
    c.name,
    m(rate(c)),
    runs
      .get(c.name)!
      .map((r) => m(r.idsPerSecond))
      .join(' / '),
    `${(rate(c) / base).toFixed(2)}x`,
    `${(rate(c) / CAP).toFixed(2)}x`,
    `${Math.round(100 * median(runs.get(c.name)!.map((r) => r.cpuShare)))}%`,
    `${(burst / 1e6).toFixed(0)}M`,
    dup === 0 ? '0' : `${dup} (${((100 * dup) / burst).toFixed(1)}%)`,
  ];
});
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
console.log(`\n${table(head, rows)}`);
