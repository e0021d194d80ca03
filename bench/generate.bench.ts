// `pnpm bench`: ids/s of each generator (median of 3 interleaved runs), then a burst checked for duplicates.
import { candidates } from './candidates.js';
import { burstDuplicates, consumed, median, type Run, timedRun } from './measure.js';
import { type Result, summary, table } from './report.js';

const RUN_MS = Number(process.env.BENCH_RUN_MS ?? 1000);
const ROUNDS = 3;
const BURST_64 = 2_000_000; // big enough that a generator without a per-ms guard (sapphire) repeats
const BURST_UUID = 1_000_000; // UUIDs go into a Set of strings

console.log(
  `snowkey generation benchmark: ${ROUNDS} runs of ${RUN_MS} ms per generator; bursts of ${BURST_64 / 1e6}M (64-bit) / ${BURST_UUID / 1e6}M (UUID)\n`,
);

const runs = new Map<string, Run[]>();
const next = new Map(candidates.map((c) => [c.key, c.create()]));
for (let round = 0; round < ROUNDS; round++) {
  for (const c of candidates) {
    const fn = next.get(c.key)!;
    if (round === 0) timedRun(fn, c.perCall, 200); // warm up the JIT
    const r = timedRun(fn, c.perCall, RUN_MS);
    runs.set(c.key, [...(runs.get(c.key) ?? []), r]);
  }
  process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
}

const results: Result[] = candidates.map((c) => {
  const burst = c.kind === 'string' ? BURST_UUID : BURST_64;
  const list = runs.get(c.key)!;
  const rates = list.map((r) => r.idsPerSecond);
  return {
    candidate: c,
    runs: rates,
    median: median(rates),
    cpuShare: median(list.map((r) => r.cpuShare)),
    burst,
    duplicates: burstDuplicates(c, burst),
  };
});
void consumed();

console.log(`\n${table(results)}\n`);
for (const line of summary(results)) console.log(line);
