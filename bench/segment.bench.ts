// `pnpm bench:segment`: SegmentAllocator's throughput against Snowflake, then nextId() latency across
// refills with the database 20 ms away.
import { markdownTable } from 'markdown-table';
import { millions as perSecond } from './measure.js';
import { measureLatency, timerOverhead } from './segment-latency.js';
import { benchDatabase, duration } from './segment-setup.js';
import { measureThroughput } from './segment-throughput.js';

const RUN_MS = Number(process.env.BENCH_RUN_MS ?? 1000);
const ROUNDS = 3;
const LATENCY_S = Number(process.env.BENCH_LATENCY_S ?? 20);
const GOAL_P999_NS = 50_000;

const right = (columns: number) => ['l', ...Array<'r'>(columns - 1).fill('r')];

console.log(
  `snowkey segment allocator benchmark: allocation table in a local SQLite file; ${ROUNDS} interleaved runs of ${RUN_MS} ms per row\n`,
);

const db = await benchDatabase();
try {
  const throughput = await measureThroughput(db.client, ROUNDS, RUN_MS);
  const base = throughput[0]!.median;
  console.log(
    markdownTable(
      [
        ['source', 'ids/s (median)', 'runs', 'vs Snowflake nextId()', 'calls that found the buffers empty'],
        ...throughput.map((r) => [
          r.name,
          perSecond(r.median),
          r.runs.map(perSecond).join(' / '),
          `${(r.median / base).toFixed(2)}x`,
          r.name.startsWith('Snowflake') ? '—' : String(r.dry),
        ]),
      ],
      { align: right(5) },
    ),
  );
  console.log(
    '\nSnowflake nextId() waits for the next millisecond after 4096 ids (4.096M/s per node); a segment allocator has no such cap.\n',
  );

  console.log(
    `latency of single nextId() calls for ${LATENCY_S} s, ~10 000 ids/s per row, rows side by side:`,
  );
  const latency = await measureLatency(db.client, LATENCY_S);
  const snowflakeP999 = latency[0]!.p(0.999);
  console.log(
    markdownTable(
      [
        ['row', 'calls', 'refills', 'calls that waited', 'p50', 'p99', 'p999', 'max', 'p999 vs Snowflake'],
        ...latency.map((r) => [
          r.name,
          String(r.samples.length),
          r.name.startsWith('Snowflake') ? '—' : String(r.refills),
          r.name.startsWith('Snowflake') ? '—' : String(r.dry),
          duration(r.p(0.5)),
          duration(r.p(0.99)),
          duration(r.p(0.999)),
          duration(r.p(1)),
          `${(r.p(0.999) / snowflakeP999).toFixed(2)}x`,
        ]),
      ],
      { align: right(9) },
    ),
  );
  console.log(`\n(hrtime itself: ${duration(timerOverhead())} per measurement, included in every figure)`);
  const double = latency[1]!;
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  console.log(
    `${verdict(double.p(0.999) < GOAL_P999_NS)}  double buffer p999 < ${duration(GOAL_P999_NS)} across ${double.refills} refills: ${duration(double.p(0.999))}`,
  );
  console.log(
    `${verdict(double.dry === 0)}  no call waited for a refill with the double buffer: ${double.dry} of ${double.samples.length} did`,
  );
} finally {
  await db.close();
}
